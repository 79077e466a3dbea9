import { describe, expect, it } from 'vitest';
import { json } from './json.ts';

describe('json', () => {
  it('answers UTF-8 JSON that shared caches do not keep by default', async () => {
    const res = json({ error: 'Zürich' }, 400);
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(await res.json()).toEqual({ error: 'Zürich' });
  });
  it('takes a cache policy', () => {
    expect(json([], 200, 'public, max-age=60').headers.get('cache-control')).toBe('public, max-age=60');
  });
});
