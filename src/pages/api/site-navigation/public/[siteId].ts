import { apiRoute } from '../../../../lib/http/endpoint.ts';
import { publicNavigation } from '../../../../features/editor/api.server.ts';

/** GET /api/site-navigation/public/{siteId}?lang=: see publicNavigation. */
export const { GET, ALL } = apiRoute({ GET: publicNavigation });
