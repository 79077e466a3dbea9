import { useEffect, useState } from 'react';
import { Icon } from './Icon.tsx';

export type FlashType = 'info' | 'success' | 'error';
/** Floating flash messages disappear after this time (spec §9). */
export const FLASH_TIMEOUT_MS = 7000;

interface Props {
  type: FlashType;
  message: string;
  /** Floats over the page and disappears after `timeoutMs`. */
  floating?: boolean;
  /** Cannot be hidden by the user. */
  static?: boolean;
  timeoutMs?: number;
  dismissLabel: string;
  typeLabel: string;
  onHide?: () => void;
}

const ICONS = { info: 'info', success: 'check', error: 'alert' } as const;

/**
 * A flash message (spec 2.6): info, success or error. A floating one vanishes after its timeout;
 * a non-floating one can be dismissed unless it is static. Errors are announced assertively.
 */
export function FlashMessage({ type, message, floating = false, static: isStatic = false, timeoutMs = FLASH_TIMEOUT_MS, dismissLabel, typeLabel, onHide }: Props) {
  const [visible, setVisible] = useState(true);
  useEffect(() => {
    if (!floating) return;
    const timer = setTimeout(() => { setVisible(false); onHide?.(); }, timeoutMs);
    return () => clearTimeout(timer);
  }, [floating, timeoutMs, onHide]);
  if (!visible) return null;
  return (
    <div className={`flash flash--${type}${floating ? ' flash--floating' : ''}`} role={type === 'error' ? 'alert' : 'status'}>
      <Icon name={ICONS[type]} size={24} />
      <p className="flash__text"><span className="visually-hidden">{typeLabel}: </span>{message}</p>
      {!floating && !isStatic && (
        <button type="button" className="flash__close" aria-label={dismissLabel} onClick={() => { setVisible(false); onHide?.(); }}>
          <Icon name="close" size={16} />
        </button>
      )}
    </div>
  );
}
