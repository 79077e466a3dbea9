import type { APIRoute } from 'astro';
import { postDraftProxy } from '../../../features/draft-proxy/api.server.ts';

/** POST /api/draft-proxy/graphql: see postDraftProxy. */
export const POST: APIRoute = (context) => postDraftProxy(context);
