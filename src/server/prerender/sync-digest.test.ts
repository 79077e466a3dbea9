import { webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { installSyncDigest } from './sync-digest.ts';

describe('installSyncDigest', () => {
  it('gives the digests Web Crypto gives, for every input type and algorithm', async () => {
    const data = new TextEncoder().encode(`<style>${'body{color:red}'.repeat(2000)}</style>`);
    const algorithms: AlgorithmIdentifier[] = ['SHA-256', 'sha-384', { name: 'SHA-512' }, 'SHA-1'];
    const inputs: BufferSource[] = [data, data.buffer, new DataView(data.buffer, 3, 100), data.subarray(5, 50)];
    const expected = await Promise.all(algorithms.flatMap((a) => inputs.map((i) => webcrypto.subtle.digest(a, i))));
    installSyncDigest();
    installSyncDigest();
    const got = await Promise.all(algorithms.flatMap((a) => inputs.map((i) => crypto.subtle.digest(a, i))));
    expect(got.map((b) => Buffer.from(b).toString('base64'))).toEqual(expected.map((b) => Buffer.from(b).toString('base64')));
    // Still a promise of an ArrayBuffer, as Astro expects.
    const one = crypto.subtle.digest('SHA-256', data);
    expect(one).toBeInstanceOf(Promise);
    expect(await one).toBeInstanceOf(ArrayBuffer);
  });
});
