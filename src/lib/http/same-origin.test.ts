import { describe, expect, it } from 'vitest';
import { isCrossOriginRequest } from './same-origin.ts';

const url = new URL('https://www.komax.example/api/translation/start/p1');
const post = (headers: Record<string, string>) => new Request(url, { method: 'POST', headers });

describe('isCrossOriginRequest', () => {
  it('refuses what a browser marks as coming from another origin, a sibling subdomain of the same site included', () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://events.komax.example' },
      { origin: 'https://evil.example' },
      { origin: 'http://www.komax.example' },
      { origin: 'null' },
      { 'sec-fetch-site': 'same-origin', origin: 'https://evil.example' },
    ];
    for (const headers of cases) expect(isCrossOriginRequest(post(headers), url), JSON.stringify(headers)).toBe(true);
  });

  it('lets same-origin requests, the user\'s own navigation and non-browser clients through', () => {
    const cases: Record<string, string>[] = [
      { 'sec-fetch-site': 'same-origin', origin: 'https://www.komax.example' },
      { origin: 'https://www.komax.example' },
      { 'sec-fetch-site': 'none' },
      {},
    ];
    for (const headers of cases) expect(isCrossOriginRequest(post(headers), url), JSON.stringify(headers)).toBe(false);
  });
});
