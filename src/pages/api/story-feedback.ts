import { postStoryFeedback } from '../../features/editorial/feedback-api.server.ts';

/** POST /api/story-feedback: see postStoryFeedback. */
export const POST = postStoryFeedback;
