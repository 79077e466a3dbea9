import { apiRoute } from '../../../lib/http/endpoint.ts';
import { postForm } from '../../../features/forms/api.server.ts';

/** POST /api/forms/{kind}: see postForm. */
export const { POST, ALL } = apiRoute({ POST: postForm });
