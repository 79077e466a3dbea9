import { account } from '../../../features/account/api.server.ts';

/** DELETE /api/account: see accountHandlers. */
export const DELETE = account.deleteAccount;
