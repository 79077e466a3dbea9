import { describe, expect, it } from 'vitest';
import { ContentError } from '../../lib/content/errors.ts';
import { CatalogueError } from '../../lib/catalogue/errors.ts';
import { LockedError } from '../release/release.ts';
import { revalidationFailureAnswer, runFailureError, runFailureOf } from './revalidate-failure.ts';

/** What the server thread gets back from the prerender thread: the fields, through a structured clone. */
const acrossThread = (err: unknown) => runFailureError(structuredClone(runFailureOf(err)));

describe('the answer to a failed revalidation', () => {
  it('a content hub that cannot be reached: 503 with Retry-After, naming the hub, not its address', () => {
    const err = new ContentError('Content hub unreachable: connect ECONNREFUSED 127.0.0.1:4100', { operation: 'SystemData', failure: 'unreachable' });
    const answer = revalidationFailureAnswer(acrossThread(err), 'mabc123');
    expect(answer.status).toBe(503);
    expect(answer.headers).toEqual({ 'Retry-After': '60' });
    expect(answer.body).toEqual({ error: expect.any(String), message: 'Revalidation failed, the previous build stays live: the content hub is unavailable (it could not be reached). Try again later.', live: 'mabc123' });
  });

  it('finds the service along the cause chain (a wrapper names none); a timeout and a 5xx say so', () => {
    const slow = new Error('collect failed', { cause: new CatalogueError('Catalogue unreachable: no answer within 5000 ms', { operation: 'Products', failure: 'timeout' }) });
    expect(revalidationFailureAnswer(acrossThread(slow), null).body.message).toBe('Revalidation failed, the previous build stays live: the catalogue is unavailable (it did not answer in time). Try again later.');
    const bad = new ContentError('GraphQL Error (Code: 503)', { operation: 'Pages', status: 503 });
    expect(revalidationFailureAnswer(acrossThread(bad), null)).toMatchObject({ status: 503, body: { error: expect.any(String), message: expect.stringContaining('the content hub is unavailable (it answered 503)') } });
  });

  it('a GraphQL error of the hub: 502 naming the operation, without the upstream text', () => {
    const err = new ContentError('Internal hub failure in resolver pageByPath at /srv/hub/resolvers.js:12', { operation: 'PageByPath', status: 200, graphQLErrors: [{ message: 'Internal hub failure' }] });
    const answer = revalidationFailureAnswer(acrossThread(err), 'm1');
    expect(answer.status).toBe(502);
    expect(answer.body.message).toBe('Revalidation failed, the previous build stays live: the content hub answered the PageByPath request with an error (details in the server log).');
    expect(JSON.stringify(answer.body)).not.toMatch(/Internal hub failure|resolvers\.js/);
  });

  it('another prerender holding the lock: 409, without the lock file path', () => {
    const answer = revalidationFailureAnswer(acrossThread(new LockedError('Another prerender is writing /srv/dist/static (pid 1 on h since x); if none runs, delete /srv/dist/static/.lock')), 'm1');
    expect(answer.status).toBe(409);
    expect(answer.body.message).not.toContain('/srv');
  });

  it('anything else: 502 pointing to the log, no message of the error (paths, stacks)', () => {
    const answer = revalidationFailureAnswer(acrossThread(new Error("ENOENT: no such file or directory, open '/srv/dist/server/entry.mjs'")), 'm1');
    expect(answer).toEqual({ status: 502, headers: {}, body: { error: expect.any(String), message: 'Revalidation failed, the previous build stays live: the prerender failed (details in the server log).', live: 'm1' } });
  });
});
