/** Icon paths on a 24 grid, shared by Icon.astro (server) and Icon.tsx (islands). Sizes 16 and 24 (spec §9). */
export const ICON_PATHS = {
  chevronDown: 'M6 9l6 6 6-6',
  chevronLeft: 'M15 18l-6-6 6-6',
  chevronRight: 'M9 6l6 6-6 6',
  close: 'M6 6l12 12M18 6L6 18',
  menu: 'M4 7h16M4 12h16M4 17h16',
  globe: 'M12 3a9 9 0 100 18 9 9 0 000-18zm-9 9h18M12 3c2.5 2.6 3.8 5.6 3.8 9s-1.3 6.4-3.8 9c-2.5-2.6-3.8-5.6-3.8-9S9.5 5.6 12 3z',
  user: 'M12 12a4 4 0 100-8 4 4 0 000 8zm-7 8c0-3.3 3.1-6 7-6s7 2.7 7 6',
  bell: 'M18 16V11a6 6 0 10-12 0v5l-2 2h16l-2-2zM10 20a2 2 0 004 0',
  download: 'M12 4v11m0 0l-4-4m4 4l4-4M5 19h14',
  play: 'M8 5v14l11-7z',
  external: 'M14 4h6v6M20 4l-9 9M18 14v5H5V6h5',
  info: 'M12 8h.01M11 12h1v5h1M12 3a9 9 0 100 18 9 9 0 000-18z',
  check: 'M5 12l5 5L20 7',
  alert: 'M12 8v5m0 3h.01M10.3 3.9L2.5 17.5A2 2 0 004.2 20.5h15.6a2 2 0 001.7-3L13.7 3.9a2 2 0 00-3.4 0z',
  mail: 'M4 6h16v12H4zM4 7l8 6 8-6',
  search: 'M11 4a7 7 0 100 14 7 7 0 000-14zm10 17l-5.2-5.2',
} as const;

export type IconName = keyof typeof ICON_PATHS;
