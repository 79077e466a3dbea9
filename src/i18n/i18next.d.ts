// Types i18next's `t` from the English locale file, the source of the key set: a key that is not in
// locales/en.json (a typo, a removed string) fails `tsc` and `astro check`.
import type en from '../../locales/en.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof en };
    keySeparator: false;
    nsSeparator: false;
    returnNull: false;
  }
}
