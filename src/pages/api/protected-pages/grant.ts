import { postGrant } from '../../../features/protected-pages/api.server.ts';

/** POST /api/protected-pages/grant: see postGrant. */
export const POST = postGrant;
