import { apiRoute } from '../../../../lib/http/endpoint.ts';
import { editorNavigation } from '../../../../features/editor/api.server.ts';

/** GET /api/site-navigation/editor/{siteId}?lang=&stage=: see editorNavigation. */
export const { GET, ALL } = apiRoute({ GET: editorNavigation });
