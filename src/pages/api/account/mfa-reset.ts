import { account } from '../../../features/account/api.server.ts';

/** POST /api/account/mfa-reset: see accountHandlers. */
export const POST = account.postMfaReset;
