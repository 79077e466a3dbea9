import { account } from '../../../features/account/api.server.ts';

/** POST /api/account/password: see accountHandlers. */
export const POST = account.postPassword;
