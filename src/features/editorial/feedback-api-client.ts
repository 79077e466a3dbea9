import * as v from 'valibot';
import type { FeedbackField, FeedbackValues } from './feedback-schema.ts';

export interface FeedbackRequest extends FeedbackValues {
  lang: string;
  storySlug: string;
}

/** What became of a submission: stored, refused per field (messages from the server), or failed. */
export type FeedbackOutcome =
  | { kind: 'sent' }
  | { kind: 'invalid'; fields: Partial<Record<FeedbackField, string>> }
  | { kind: 'failed' };

const Refusal = v.object({ ok: v.literal(false), fields: v.record(v.string(), v.string()) });

/** Interprets the answer of POST /api/story-feedback. */
export async function outcomeOf(res: Response): Promise<FeedbackOutcome> {
  if (res.ok) return { kind: 'sent' };
  if (res.status === 400) {
    const body = v.safeParse(Refusal, await res.json().catch(() => null));
    if (body.success && Object.keys(body.output.fields).length > 0) return { kind: 'invalid', fields: body.output.fields as Partial<Record<FeedbackField, string>> };
  }
  return { kind: 'failed' };
}

/** Sends story feedback; a network failure is a failed outcome, never a thrown error. */
export async function sendFeedback(body: FeedbackRequest, doFetch: typeof fetch = (...a) => fetch(...a)): Promise<FeedbackOutcome> {
  try {
    const res = await doFetch('/api/story-feedback', { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) });
    return await outcomeOf(res);
  } catch {
    return { kind: 'failed' };
  }
}
