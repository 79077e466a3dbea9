import { customerAreaSettings } from '../../lib/content/cached.ts';
import { getLogger } from '../../lib/log/index.ts';
import { customerAreaPage } from '../customer-area/page.ts';
import { registrationUrl } from '../sign-in/api.server.ts';
import type { PageContext } from '../platform/context.ts';
import { type CustomerAreaSettings, type TilePaths } from './tiles.ts';
import { SERVICES, type ServiceId } from '../customer-area/roles.ts';

const log = getLogger('dashboard');

export interface DashboardInput {
  settings: CustomerAreaSettings;
  paths: TilePaths;
  /** Why the content hub's settings are missing (a dashboard error with technical details), else null. */
  settingsError: string | null;
}

const NO_SETTINGS = { directServiceUrl: null, wireFlowCloudUrl: null, masterDataWmUrl: null, masterDataMdsUrl: null, campusUrl: null, requestAccessPath: null, comingSoon: [], supportEmail: null, supportPhone: null };

/**
 * What the dashboard island needs besides the user (no personal data): the localized routes the
 * tiles lead to, the content hub's customer-area settings and the provider's registration page
 * returning to this dashboard. The customer area lives on the main site. When the content hub
 * cannot answer, the tiles still show their role status and the page says what failed.
 */
export async function loadDashboardInput(ctx: PageContext, origin: string): Promise<DashboardInput> {
  const { href, links } = customerAreaPage(ctx);
  const dashboardUrl = `${origin}${links.dashboard}`;
  let content = NO_SETTINGS as Awaited<ReturnType<typeof customerAreaSettings>>;
  let settingsError: string | null = null;
  try {
    content = await customerAreaSettings(ctx.data, ctx.content);
  } catch (err) {
    settingsError = (err as Error).message;
    log.error(`customer-area settings: ${settingsError}`);
  }
  const known = new Set<string>(SERVICES);
  return {
    settings: {
      directServiceUrl: content.directServiceUrl,
      directRegistrationUrl: registrationUrl(ctx.services.identity.issuer, dashboardUrl),
      wireFlowCloudUrl: content.wireFlowCloudUrl,
      masterDataWmUrl: content.masterDataWmUrl,
      masterDataMdsUrl: content.masterDataMdsUrl,
      campusUrl: content.campusUrl,
      requestAccessUrl: content.requestAccessPath ? href(content.requestAccessPath) : null,
      comingSoon: content.comingSoon.filter((s): s is ServiceId => known.has(s)),
    },
    paths: {
      tickets: links.tickets,
      inventory: links.inventory,
      userAdmin: links.userAdmin,
      wireFlow: links.wireFlow,
      dashboardUrl,
    },
    settingsError,
  };
}
