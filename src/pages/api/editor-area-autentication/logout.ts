import { apiRoute } from '../../../lib/http/endpoint.ts';
import { logout } from '../../../features/editor/auth.server.ts';

/** POST /api/editor-area-autentication/logout: see editorAuthHandlers. */
export const { POST, ALL } = apiRoute({ POST: logout });
