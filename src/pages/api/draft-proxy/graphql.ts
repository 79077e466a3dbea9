import { apiRoute } from '../../../lib/http/endpoint.ts';
import { draftProxyRoute } from '../../../features/draft-proxy/api.server.ts';

/** POST /api/draft-proxy/graphql: see postDraftProxy. */
export const { POST, ALL } = apiRoute({ POST: draftProxyRoute });
