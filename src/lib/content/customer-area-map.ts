import type { RawCustomerAreaSettings } from './customer-area-schema.ts';

/** The customer area's settings from the content hub (service addresses, coming-soon services). */
export interface CustomerAreaContent {
  directServiceUrl: string | null;
  wireFlowCloudUrl: string | null;
  masterDataWmUrl: string | null;
  masterDataMdsUrl: string | null;
  campusUrl: string | null;
  /** Site-relative path (main site) of the page where a user asks for access; null when none. */
  requestAccessPath: string | null;
  /** Service ids (as the dashboard names them) announced but not open yet. */
  comingSoon: string[];
}

/** An absolute http(s) URL, else null (an editor's typo must not become a `javascript:` or relative link). */
function webUrl(value: string | null | undefined, field: string, warn: (m: string) => void): string | null {
  if (!value || value === 'null') return null;
  try {
    const url = new URL(value);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.toString();
  } catch { /* reported below */ }
  warn(`customerAreaSettings.${field} is not an http(s) URL and is ignored: ${value.slice(0, 50)}`);
  return null;
}

/** Raw settings → domain settings: unusable addresses dropped (and reported), paths checked, duplicates removed. */
export function mapCustomerArea(raw: RawCustomerAreaSettings, warn: (m: string) => void = () => {}): CustomerAreaContent {
  const path = raw.requestAccessPath?.trim() || null;
  const pathOk = path !== null && /^\/(?!\/)[^\s\\]*$/.test(path);
  if (path !== null && !pathOk) warn(`customerAreaSettings.requestAccessPath is not a site-relative path and is ignored: ${path.slice(0, 50)}`);
  return {
    directServiceUrl: webUrl(raw.directServiceUrl, 'directServiceUrl', warn),
    wireFlowCloudUrl: webUrl(raw.wireFlowCloudUrl, 'wireFlowCloudUrl', warn),
    masterDataWmUrl: webUrl(raw.masterDataWmUrl, 'masterDataWmUrl', warn),
    masterDataMdsUrl: webUrl(raw.masterDataMdsUrl, 'masterDataMdsUrl', warn),
    campusUrl: webUrl(raw.campusUrl, 'campusUrl', warn),
    requestAccessPath: pathOk ? path : null,
    comingSoon: [...new Set(raw.comingSoon.map((s) => s.trim()).filter(Boolean))],
  };
}
