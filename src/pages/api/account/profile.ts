import { account } from '../../../features/account/api.server.ts';

/** GET /api/account/profile, PATCH /api/account/profile: see accountHandlers. */
export const GET = account.getProfile;
export const PATCH = account.patchProfile;
