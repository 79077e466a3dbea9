import { getSession } from '../../../features/sign-in/api.server.ts';

/** GET /api/mykomax/session: see getSession. */
export const GET = getSession;
