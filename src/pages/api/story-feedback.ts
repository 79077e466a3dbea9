import { apiRoute } from '../../lib/http/endpoint.ts';
import { postStoryFeedback } from '../../features/editorial/feedback-api.server.ts';

/** POST /api/story-feedback: see postStoryFeedback. */
export const { POST, ALL } = apiRoute({ POST: postStoryFeedback });
