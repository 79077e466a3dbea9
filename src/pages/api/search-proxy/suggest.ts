import type { APIRoute } from 'astro';
import { handleSearch } from '../../../features/search/api.server.ts';

export const POST: APIRoute = (context) => handleSearch('suggest', context);
