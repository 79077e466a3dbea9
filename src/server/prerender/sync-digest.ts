import { createHash } from 'node:crypto';

const NODE_NAMES: Record<string, string> = { 'SHA-1': 'sha1', 'SHA-256': 'sha256', 'SHA-384': 'sha384', 'SHA-512': 'sha512' };
let installed = false;

/**
 * Makes `crypto.subtle.digest` hash on the calling thread. Astro hashes every inline script and
 * style of every page it renders for the CSP (a 31 KB inlined stylesheet included) through Web
 * Crypto, whose every call is a job on the thread pool and back: in a full prerender that
 * round trip cost more than the hashing (~5 % of the run's CPU). The digest is the same bytes, and
 * still answered through a promise; other algorithms and input types go to the original. Only
 * render threads of the prerender install it (their only work is rendering).
 */
export function installSyncDigest(): void {
  if (installed) return;
  installed = true;
  const subtle = globalThis.crypto.subtle;
  const original = subtle.digest.bind(subtle);
  subtle.digest = ((algorithm: AlgorithmIdentifier, data: BufferSource) => {
    const name = typeof algorithm === 'string' ? algorithm : algorithm?.name;
    const node = typeof name === 'string' ? NODE_NAMES[name.toUpperCase()] : undefined;
    const bytes = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data instanceof ArrayBuffer ? new Uint8Array(data) : null;
    if (!node || !bytes) return original(algorithm, data);
    const hash = createHash(node).update(bytes).digest();
    return Promise.resolve(hash.buffer.slice(hash.byteOffset, hash.byteOffset + hash.byteLength));
  }) as SubtleCrypto['digest'];
}
