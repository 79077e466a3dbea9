import { describe, expect, it, vi } from 'vitest';
import { outcomeOf, sendFeedback } from './feedback-api-client.ts';

const json = (body: unknown, status: number) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const request = { lang: 'en', storySlug: 's', firstName: 'A', lastName: 'B', company: 'C', country: 'CH', message: 'M' };

describe('outcomeOf', () => {
  it('is sent for 200', async () => {
    expect(await outcomeOf(json({ ok: true }, 200))).toEqual({ kind: 'sent' });
  });

  it('carries the field messages of a 400', async () => {
    expect(await outcomeOf(json({ ok: false, fields: { company: 'Please enter the company you work for' } }, 400)))
      .toEqual({ kind: 'invalid', fields: { company: 'Please enter the company you work for' } });
  });

  it('is failed for a 400 without fields, a 404, a 502 or a body that is not JSON', async () => {
    expect(await outcomeOf(json({ ok: false, error: 'x' }, 400))).toEqual({ kind: 'failed' });
    expect(await outcomeOf(json({ ok: false }, 404))).toEqual({ kind: 'failed' });
    expect(await outcomeOf(json({ ok: false }, 502))).toEqual({ kind: 'failed' });
    expect(await outcomeOf(new Response('<html>', { status: 400 }))).toEqual({ kind: 'failed' });
  });
});

describe('sendFeedback', () => {
  it('posts JSON to the API', async () => {
    const doFetch = vi.fn(async () => json({ ok: true }, 200));
    expect(await sendFeedback(request, doFetch as unknown as typeof fetch)).toEqual({ kind: 'sent' });
    const [url, init] = doFetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/story-feedback');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual(request);
  });

  it('turns a network error into a failed outcome', async () => {
    const doFetch = vi.fn(async () => { throw new TypeError('Failed to fetch'); });
    expect(await sendFeedback(request, doFetch as unknown as typeof fetch)).toEqual({ kind: 'failed' });
  });
});
