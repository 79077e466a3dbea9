import * as v from 'valibot';
import { SupportEmailSchema, SupportPhoneSchema, type RawCustomerAreaSettings } from './schema.ts';

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
  /** Komax service's e-mail address (spec §8 "with a support contact"); null when missing or not an e-mail address. */
  supportEmail: string | null;
  /** Komax service's phone number (digits, spaces, +); null when missing or malformed. */
  supportPhone: string | null;
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

/** A value in the schema's format (trimmed), else null; a malformed one is reported. */
function formatted(schema: typeof SupportEmailSchema | typeof SupportPhoneSchema, value: string | null | undefined, field: string, warn: (m: string) => void): string | null {
  if (!value?.trim() || value === 'null') return null;
  const result = v.safeParse(schema, value);
  if (result.success) return result.output;
  warn(`customerAreaSettings.${field} is malformed and is ignored: ${value.slice(0, 50)}`);
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
    supportEmail: formatted(SupportEmailSchema, raw.supportEmail, 'supportEmail', warn),
    supportPhone: formatted(SupportPhoneSchema, raw.supportPhone, 'supportPhone', warn),
  };
}
