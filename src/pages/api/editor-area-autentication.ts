import { apiRoute } from '../../lib/http/endpoint.ts';
import { signIn } from '../../features/editor/auth.server.ts';

/** POST /api/editor-area-autentication: see editorAuthHandlers. */
export const { POST, ALL } = apiRoute({ POST: signIn });
