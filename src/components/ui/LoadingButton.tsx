import type { ButtonHTMLAttributes, ReactNode } from 'react';
import { Spinner } from './Spinner.tsx';

interface Props extends ButtonHTMLAttributes<HTMLButtonElement> {
  loading?: boolean;
  /** Announced while loading (the visible content is hidden). */
  loadingLabel: string;
  variant?: 'primary' | 'secondary' | 'light';
  children: ReactNode;
}

/** A button that, while loading, hides its content, shows a spinner and is disabled (spec 2.6). */
export function LoadingButton({ loading = false, loadingLabel, variant = 'primary', children, className, disabled, ...rest }: Props) {
  const classes = ['btn', variant !== 'primary' ? `btn--${variant}` : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <button {...rest} className={classes} disabled={disabled || loading} aria-busy={loading || undefined}>
      <span className={loading ? 'btn__content--hidden' : undefined}>{children}</span>
      {loading && (
        <span className="btn__spinner">
          <Spinner />
          <span className="visually-hidden">{loadingLabel}</span>
        </span>
      )}
    </button>
  );
}
