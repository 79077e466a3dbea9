import { apiRoute } from '../../../lib/http/endpoint.ts';
import { postGraphQL } from '../../../features/tickets/proxy.server.ts';

/** POST /api/ticketing/graphql: the tickets proxy (see postGraphQL). */
export const { POST, ALL } = apiRoute({ POST: postGraphQL });
