import { formatLocale } from '../../i18n/index.ts';
import type { PageContext } from '../platform/context.ts';
import { servicePaths, type ServicePaths } from './paths.ts';

/** What every customer-service page hands its island: the pages' addresses and the Intl locale (de-CH for German). */
export function servicePageProps(ctx: PageContext): { paths: ServicePaths; locale: string } {
  const { site, locale } = ctx.request;
  return { paths: servicePaths(site, locale), locale: formatLocale(locale.language, locale.country) };
}

/** A ticket id as the ticketing service writes them (`SR-100042`); anything else is no ticket. */
export const TICKET_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
