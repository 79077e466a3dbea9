import { apiRoute } from '../../lib/http/endpoint.ts';
import { getNewsFeed } from '../../features/news-feed/api.server.ts';

/** GET /api/news-feed?lang={locale}&after={cursor}: see getNewsFeed. */
export const { GET, ALL } = apiRoute({ GET: getNewsFeed });
