import { formatLocale } from '../../i18n/index.ts';
import { customerAreaSettings } from '../../lib/content/cached.ts';
import { getLogger } from '../../lib/log/index.ts';
import type { LoadContext, PageContext } from '../platform/context.ts';
import { customerAreaPage } from '../customer-area/page.ts';
import type { ServicePaths } from '../customer-area/paths.ts';
import type { SupportContactInfo } from '../customer-area/island-kit.tsx';

const log = getLogger('tickets');

/** What every customer-service page hands its island (no personal data). */
export interface ServicePageProps {
  paths: ServicePaths;
  /** The Intl locale (de-CH for German). */
  locale: string;
  /** Komax service's contact from the content hub (spec §8 "with a support contact"); null hides the contact line. */
  support: SupportContactInfo | null;
}

/** What every customer-service page hands its island: the pages' addresses, the Intl locale and the support contact. */
export async function servicePageProps(ctx: PageContext): Promise<ServicePageProps> {
  const { locale } = ctx.request;
  return {
    paths: customerAreaPage(ctx).services,
    locale: formatLocale(locale.language, locale.country),
    support: await loadSupportContact(ctx),
  };
}

/**
 * The support contact of the content hub's customer-area settings, like the dashboard loads them.
 * The content hub failing, or a record without a usable e-mail address and phone number, hides the
 * contact line (logged) rather than the page: the failure text still shows.
 */
export async function loadSupportContact(lc: LoadContext): Promise<SupportContactInfo | null> {
  try {
    const { supportEmail, supportPhone } = await customerAreaSettings(lc.data, lc.content);
    if (supportEmail && supportPhone) return { email: supportEmail, phone: supportPhone };
    log.warn('customer-area settings: no usable supportEmail and supportPhone, the support contact is hidden');
  } catch (err) {
    log.error(`customer-area settings: ${(err as Error).message}; the support contact is hidden`);
  }
  return null;
}

/** A ticket id as the ticketing service writes them (`SR-100042`); anything else is no ticket. */
export const TICKET_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
