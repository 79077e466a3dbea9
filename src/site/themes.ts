/** The eleven themes (spec §3). Brand themes are the same list without Copper, Light_Blue and Iqc. */
export const THEMES = [
  'Default', 'Copper', 'Light_Blue', 'Iqc',
  'Lumeca', 'Tarnell', 'Vexo', 'Ostrav', 'Kelsen', 'Quadrel', 'Sirex',
] as const;
export type Theme = (typeof THEMES)[number];

export const BRAND_THEMES = THEMES.filter((t) => !['Copper', 'Light_Blue', 'Iqc'].includes(t));

/** 'theme-' plus the lowercased name with a dash: `Light_Blue` → `theme-light-blue`. Unknown names give the default theme. */
export function themeClass(theme: string | null | undefined): string {
  const known = THEMES.find((t) => t.toLowerCase() === (theme ?? '').toLowerCase()) ?? 'Default';
  return `theme-${known.toLowerCase().replace(/_/g, '-')}`;
}
