import { apiRoute } from '../../../../lib/http/endpoint.ts';
import { translationState } from '../../../../features/editor/api.server.ts';

/** GET /api/translation/state/{pageId}: see translationState. */
export const { GET, ALL } = apiRoute({ GET: translationState });
