import { apiRoute } from '../../../lib/http/endpoint.ts';
import { postSearch } from '../../../features/search/api.server.ts';

/** POST /api/search-proxy/search: see handleSearch. */
export const { POST, ALL } = apiRoute({ POST: postSearch });
