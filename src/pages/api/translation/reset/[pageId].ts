import { apiRoute } from '../../../../lib/http/endpoint.ts';
import { translationReset } from '../../../../features/editor/api.server.ts';

/** POST /api/translation/reset/{pageId}: see translationReset. Other methods (GET too): 405 with Allow: POST. */
export const { POST, ALL } = apiRoute({ POST: translationReset });
