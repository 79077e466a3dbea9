import { apiRoute } from '../../../../lib/http/endpoint.ts';
import { getDownload } from '../../../../features/tickets/proxy.server.ts';

/** GET /api/ticketing/download/{link}: a file through a sealed, short-lived link (see getDownload). */
export const { GET, ALL } = apiRoute({ GET: getDownload });
