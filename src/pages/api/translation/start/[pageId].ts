import { apiRoute } from '../../../../lib/http/endpoint.ts';
import { translationStart } from '../../../../features/editor/api.server.ts';

/** POST /api/translation/start/{pageId}: see translationStart. Other methods (GET too): 405 with Allow: POST. */
export const { POST, ALL } = apiRoute({ POST: translationStart });
