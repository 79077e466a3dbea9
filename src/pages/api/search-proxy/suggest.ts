import { apiRoute } from '../../../lib/http/endpoint.ts';
import { postSuggest } from '../../../features/search/api.server.ts';

/** POST /api/search-proxy/suggest: see handleSearch. */
export const { POST, ALL } = apiRoute({ POST: postSuggest });
