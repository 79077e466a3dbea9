import { apiRoute } from '../../../lib/http/endpoint.ts';
import { account } from '../../../features/account/api.server.ts';

/** POST /api/account/mfa-reset: see accountHandlers. */
export const { POST, ALL } = apiRoute({ POST: account.postMfaReset });
