import { ICON_PATHS, type IconName } from './icons.ts';

/** An icon for React islands (sizes 16 and 24); decorative unless labelled. Astro pages use Icon.astro. */


export function Icon({ name, size = 24, label }: { name: IconName; size?: 16 | 24; label?: string }) {
  return (
    <svg
      width={size} height={size} viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth={2}
      strokeLinecap="round" strokeLinejoin="round" role={label ? 'img' : undefined}
      aria-label={label} aria-hidden={label ? undefined : true} focusable="false"
    >
      <path d={ICON_PATHS[name]} />
    </svg>
  );
}
