import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { signValue } from '../../src/lib/crypto/signed.ts';
import { test, expect, expectNoAxeViolations, raw, ORIGIN } from './fixtures/index.ts';
import { DEMO_USERS, signedIn, storedTokens, submitLogin } from './fixtures/identity.ts';

// Issue 13, protected pages (spec §2.4, §3 Page protection, §6): enforced on the server. Password
// pages answer the password form, CIAM-role pages a sign-in shell, until the visitor holds the
// page's grant; no protected text ever reaches the static output, the search indexes or bundles.

const CONTENT = join(process.cwd(), 'emulators/data/content');
const DIST = join(process.cwd(), process.env.DIST_DIR ?? 'dist');
/** The e2e server's grant secret (playwright.config.ts). */
const GRANT_SECRET = 'e2e-page-grant-secret-0123456789abcdef';

interface RawPage { id: string; site: string | null; slug: string; parent: string | null; protection?: number; passwordHash?: string; requiredRole?: string; content: Record<string, { title: string; description?: string; modules: unknown[] }> }
const pages = JSON.parse(readFileSync(join(CONTENT, 'pages.json'), 'utf8')) as RawPage[];
const navigation = readFileSync(join(CONTENT, 'navigation.json'), 'utf8');
const byId = new Map(pages.map((p) => [p.id, p]));
const SITE_PREFIX: Record<string, string> = { 'site-main': '', 'site-brand-portal': '/brand-portal' };

const chain = (p: RawPage): RawPage[] => { const out: RawPage[] = []; for (let c: RawPage | undefined = p; c; c = c.parent ? byId.get(c.parent) : undefined) out.unshift(c); return out; };
const protector = (p: RawPage) => chain(p).find((c) => (c.protection ?? 0) > 0);
const urlOf = (p: RawPage) => `/en${SITE_PREFIX[p.site!]}/${chain(p).map((c) => c.slug).join('/')}`;
const protectedPages = pages.filter((p) => protector(p));

/** Every string of a value (titles, paragraphs, list items, file titles …). */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}
const publicText = new Set([...pages.filter((p) => !protector(p)).flatMap((p) => strings(p.content)), ...strings(JSON.parse(navigation))]);
/** The distinctive texts of a protected page: long enough to mean something, and on no public page. */
const publicTexts = [...publicText];
const texts = new Map<string, string[]>();
const textsOf = (p: RawPage): string[] => {
  let list = texts.get(p.id);
  if (!list) {
    list = [...new Set(strings(Object.values(p.content)).filter((s) => s.length >= 12 && !s.startsWith('/') && !/\.(pdf|svg)$/.test(s) && !publicTexts.some((t) => t.includes(s))))];
    texts.set(p.id, list);
  }
  return list;
};

const PRODUCTRONICA = pages.find((p) => p.slug === 'internal' && byId.get(p.parent!)?.slug === 'productronica')!;
const INTERNAL_2025 = pages.find((p) => p.slug === 'internal-2025')!;
const TOKEN_CHILDREN = pages.filter((p) => p.parent === INTERNAL_2025.id);
const ROLE_PAGE = pages.find((p) => p.protection === 2)!;
const BRAND_PAGES = pages.filter((p) => p.slug.endsWith('-brand-portal-protected'));
/** The internal event pages of spec §3 beside internal-2025 and productronica/internal, and the standalone {token} page (issue 29 item 14). */
const EVENT_PAGES = ['internal-2024', 'internal-wirepro-expo-grafenau', 'internal-productronica'].map((slug) => pages.find((p) => p.slug === slug)!);
const TOKEN_PAGE = pages.find((p) => p.site === 'site-main' && p.parent === null && /^[a-z0-9]{8}$/.test(p.slug) && p.protection === 1);
/** The demo passwords (emulators/data/README.md). */
const PASSWORDS = { productronica: 'Productronica-Booth-2025', internal2025: 'Event-Kit-2025', tarnell: 'Tarnell-Brand-Assets' };

const grantCookie = (pageId: string, signedFor = pageId, secret = GRANT_SECRET, ttl = 3600) => `kmx_grant_${pageId}=${signValue({ page: signedFor }, secret, ttl)}`;
const formPost = (path: string, password: string, headers: Record<string, string> = {}) =>
  raw(path, { method: 'POST', body: `password=${encodeURIComponent(password)}`, headers: { 'content-type': 'application/x-www-form-urlencoded', origin: ORIGIN, ...headers } });

test('the demo data has the protected pages of spec 2.4, each with real content, a hash or role, and the first ones a navigation entry', () => {
  expect(urlOf(PRODUCTRONICA)).toBe('/en/productronica/internal');
  expect(urlOf(INTERNAL_2025)).toBe('/en/events/internal-2025');
  expect(TOKEN_CHILDREN).toHaveLength(2);
  expect(BRAND_PAGES.map(urlOf).sort()).toEqual(['/en/brand-portal/komax/komax-brand-portal-protected', '/en/brand-portal/lumeca/lumeca-brand-portal-protected', '/en/brand-portal/tarnell/tarnell-brand-portal-protected']);
  expect(ROLE_PAGE.requiredRole).toBe('kmx_int_serviceticketing_active');
  expect(EVENT_PAGES.map((p) => p && urlOf(p))).toEqual(['/en/events/internal-2024', '/en/events/internal-wirepro-expo-grafenau', '/en/events/internal-productronica']);
  expect(TOKEN_PAGE && urlOf(TOKEN_PAGE)).toBe('/en/p3k8v2qw');
  for (const p of [PRODUCTRONICA, INTERNAL_2025, ...BRAND_PAGES, ...EVENT_PAGES, TOKEN_PAGE!]) expect(p.passwordHash, p.slug).toMatch(/^scrypt\$/);
  for (const p of protectedPages) {
    expect(textsOf(p).length, p.slug).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(p.content), p.slug).toContain('"type":"downloads"');
  }
  for (const p of [PRODUCTRONICA, INTERNAL_2025, ROLE_PAGE, ...BRAND_PAGES]) expect(navigation, p.slug).toContain(`"page": "${p.id}"`);
});

test('every protected page and child, fetched without a grant, answers the form or the sign-in shell: never its content, private and noindex', async () => {
  expect(protectedPages.length).toBe(12);
  for (const p of protectedPages) {
    const url = urlOf(p);
    const res = await raw(url);
    expect(res.status, url).toBe(200);
    expect(res.headers['x-render'], url).toBe('on-demand');
    expect(res.headers['cache-control'], url).toBe('private, no-store');
    expect(res.headers['x-robots-tag'], url).toBe('noindex');
    expect(res.text, url).toContain('<meta name="robots" content="noindex"');
    if (protector(p)!.protection === 2) {
      expect(res.text, url).toContain('data-protected-shell');
      expect(res.text, url).not.toContain('name="password"');
    } else {
      expect(res.text, url).toContain('name="password"');
    }
    const leaked = textsOf(p).filter((t) => res.text.includes(t) || res.text.includes(JSON.stringify(t).slice(1, -1)));
    expect(leaked, url).toEqual([]);
    expect(res.text, url).not.toContain('/file/');
    // Nothing of it in a payload either.
    expect((await raw(`${url}/_payload.json`)).status, url).toBe(404);
  }
});

test('a forged, expired or other page\'s grant is refused; a valid grant opens the page and its children', async () => {
  const url = urlOf(INTERNAL_2025);
  const [child] = TOKEN_CHILDREN;
  const refused = [
    grantCookie(INTERNAL_2025.id, INTERNAL_2025.id, 'a-guessed-secret-0123456789abcdef'),
    grantCookie(INTERNAL_2025.id, PRODUCTRONICA.id),
    grantCookie(INTERNAL_2025.id, INTERNAL_2025.id, GRANT_SECRET, -10),
    `kmx_grant_${INTERNAL_2025.id}=eyJwYWdlIjoiY21oOWZnYzFidDFpOGJxbmJmdTBxYjA2cCIsImV4cCI6OTk5OTk5OTk5OX0.AAAA`,
    grantCookie(child!.id),
  ];
  for (const cookie of refused) {
    for (const path of [url, urlOf(child!)]) {
      const res = await raw(path, { headers: { cookie } });
      expect(res.text, `${path} ${cookie}`).toContain('name="password"');
    }
  }
  const granted = await raw(urlOf(child!), { headers: { cookie: grantCookie(INTERNAL_2025.id) } });
  expect(granted.text).toContain(child!.content.en!.title);
  expect(granted.headers['cache-control']).toBe('private, no-store');
});

test('the password form without JavaScript: empty asks for a password, wrong is refused, right sets a scoped grant and redirects', async () => {
  const url = urlOf(PRODUCTRONICA);
  const empty = await formPost(url, '');
  expect(empty.status).toBe(400);
  expect(empty.text).toContain('Please enter a password');
  expect(empty.headers['cache-control']).toBe('private, no-store');
  const wrong = await formPost(url, 'not-the-password');
  expect(wrong.status).toBe(403);
  expect(wrong.text).toContain('The password is not correct');
  expect(wrong.headers['set-cookie']).toBeUndefined();
  const right = await formPost(url, PASSWORDS.productronica);
  expect(right.status).toBe(303);
  expect(right.headers.location).toBe(url);
  const [cookie, fileCookie] = right.headers['set-cookie'] as string[];
  expect(cookie).toMatch(new RegExp(`^kmx_grant_${PRODUCTRONICA.id}=[^;]+; Max-Age=28800; Path=${url}; HttpOnly; SameSite=Lax$`));
  // The same grant for the page's downloads, and only there.
  expect(fileCookie).toMatch(new RegExp(`^kmx_grant_${PRODUCTRONICA.id}=[^;]+; Max-Age=28800; Path=/file; HttpOnly; SameSite=Lax$`));
  const grant = cookie!.split(';')[0]!;
  expect((await raw(url, { headers: { cookie: grant } })).text).toContain(PRODUCTRONICA.content.en!.title);
  expect((await raw('/file/productronica-2025-stand-plan')).status).toBe(404);
  const file = await raw('/file/productronica-2025-stand-plan', { headers: { cookie: grant } });
  expect([file.status, file.headers['cache-control']]).toEqual([200, 'private, no-store']);
  // Cross-site posts never reach the form (Astro's checkOrigin).
  expect((await formPost(url, PASSWORDS.productronica, { origin: 'https://evil.example' })).status).toBe(403);
});

test('password attempts are rate-limited per client: 429 with Retry-After', async () => {
  const tarnell = BRAND_PAGES.find((p) => p.slug.startsWith('tarnell'))!;
  const url = urlOf(tarnell);
  let last = await formPost(url, 'wrong-1');
  for (let i = 2; i <= 11 && last.status !== 429; i++) last = await formPost(url, `wrong-${i}`);
  expect(last.status).toBe(429);
  expect(Number(last.headers['retry-after'])).toBeGreaterThan(0);
  expect(last.text).toContain('Too many attempts');
  // Even the right password waits.
  expect((await formPost(url, PASSWORDS.tarnell)).status).toBe(429);
});

async function submitPassword(page: Page, password: string): Promise<void> {
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Open page' }).click();
}

test('in the browser: a wrong password shows the error, the right one the page, and its token children open too', async ({ page }) => {
  await page.goto(urlOf(INTERNAL_2025));
  await expect(page.getByRole('heading', { name: 'Protected page', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'Open page' }).click();
  await expect(page.getByRole('alert')).toHaveText('Please enter a password');
  await submitPassword(page, 'Event-Kit-2024');
  await expect(page.getByRole('alert')).toHaveText('The password is not correct. Please check it and try again.');
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await submitPassword(page, PASSWORDS.internal2025);
  await expect(page).toHaveURL(urlOf(INTERNAL_2025));
  await expect(page.getByRole('heading', { name: INTERNAL_2025.content.en!.title, level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: /Event staff briefing 2025/ })).toBeVisible();
  for (const child of TOKEN_CHILDREN) {
    await page.goto(urlOf(child));
    await expect(page.getByRole('heading', { name: child.content.en!.title, level: 1 })).toBeVisible();
  }
  // The grant opens files only its page links.
  expect((await page.request.get('/file/event-staff-briefing-2025')).status()).toBe(200);
});

test('a child opened first asks for its protected parent\'s password and then shows the child', async ({ page }) => {
  const child = TOKEN_CHILDREN[1]!;
  await page.goto(urlOf(child));
  await submitPassword(page, PASSWORDS.internal2025);
  await expect(page).toHaveURL(urlOf(child));
  await expect(page.getByRole('heading', { name: child.content.en!.title, level: 1 })).toBeVisible();
});

test('the password form passes axe', async ({ page }) => {
  await page.goto(urlOf(PRODUCTRONICA));
  await expectNoAxeViolations(page);
  await page.getByRole('button', { name: 'Open page' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await expectNoAxeViolations(page);
});

test.describe('the CIAM-role page', () => {
  test('a signed-in user with the role sees it on direct navigation', async ({ page }) => {
    await signedIn(page, DEMO_USERS.customer);
    await page.goto(urlOf(ROLE_PAGE));
    await expect(page.getByRole('heading', { name: ROLE_PAGE.content.en!.title, level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: /Service bulletin SB-2025-14/ })).toBeVisible();
  });

  test('a signed-in user without the role is refused, and the grant API answers 403', async ({ page }) => {
    await signedIn(page, DEMO_USERS.noroles);
    await page.goto(urlOf(ROLE_PAGE));
    await expect(page.getByText('Your myKomax account has no access to this page.')).toBeVisible();
    await expect(page.getByRole('heading', { name: ROLE_PAGE.content.en!.title })).toHaveCount(0);
    const token = (await storedTokens(page))!.accessToken;
    const res = await page.request.post('/api/protected-pages/grant', { headers: { authorization: `Bearer ${token}` }, data: { pageId: ROLE_PAGE.id, path: urlOf(ROLE_PAGE) } });
    expect(res.status()).toBe(403);
    expect(res.headers()['set-cookie']).toBeUndefined();
  });

  test('signed out it offers Log in, which signs in and comes back to the page', async ({ page }) => {
    await page.goto(urlOf(ROLE_PAGE));
    await page.getByRole('button', { name: 'Log in' }).click();
    await submitLogin(page, DEMO_USERS.admin);
    await page.waitForURL(`**${urlOf(ROLE_PAGE)}`);
    await expect(page.getByRole('heading', { name: ROLE_PAGE.content.en!.title, level: 1 })).toBeVisible();
  });

  test('the grant API wants a valid token and a role page at its path', async ({ page }) => {
    const post = (headers: Record<string, string>, data: unknown) => page.request.post('/api/protected-pages/grant', { headers, data });
    expect((await post({}, { pageId: ROLE_PAGE.id, path: urlOf(ROLE_PAGE) })).status()).toBe(401);
    expect((await post({ authorization: 'Bearer forged.token.value' }, { pageId: ROLE_PAGE.id, path: urlOf(ROLE_PAGE) })).status()).toBe(401);
    await signedIn(page, DEMO_USERS.customer);
    const auth = { authorization: `Bearer ${(await storedTokens(page))!.accessToken}` };
    expect((await post(auth, { pageId: INTERNAL_2025.id, path: urlOf(INTERNAL_2025) })).status()).toBe(404);
    expect((await post(auth, { pageId: ROLE_PAGE.id, path: '/en/somewhere-else' })).status()).toBe(404);
    expect((await post(auth, { pageId: 'x;y', path: urlOf(ROLE_PAGE) })).status()).toBe(400);
    const ok = await post(auth, { pageId: ROLE_PAGE.id, path: urlOf(ROLE_PAGE) });
    expect(ok.status()).toBe(204);
    expect(ok.headers()['set-cookie']).toMatch(new RegExp(`^kmx_grant_${ROLE_PAGE.id}=[^;]+; Max-Age=900; Path=${urlOf(ROLE_PAGE)}; HttpOnly; SameSite=Lax$`, 'm'));
    expect(ok.headers()['cache-control']).toBe('private, no-store');
  });
});

test('the public APIs know nothing of them: the search API finds none of their words, the news feed none of their titles', async () => {
  const search = async (siteSlug: string, query: string) => {
    const res = await raw('/api/search-proxy/search', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ localeCode: 'en', siteSlug, query }) });
    expect(res.status, query).toBe(200);
    return res.text;
  };
  // Words only the protected pages use (main site and brand portal) are found nowhere …
  for (const [site, word] of [['', 'Isarblick'], ['', 'lanyard'], ['', 'Kronberg'], ['brand-portal', 'anthracite']]) {
    const text = await search(site!, word!);
    // The search is fuzzy: it may answer public pages with similar words, never a protected page or its text.
    const urls = (JSON.parse(text) as { records: { url: string }[] }).records.map((r) => r.url);
    expect(urls.filter((u) => protectedPages.some((p) => u.startsWith(urlOf(p)))), word).toEqual([]);
    expect(text.toLowerCase(), word).not.toContain(`<mark>${word!.toLowerCase()}</mark>`);
    for (const p of protectedPages) for (const t of [p.content.en!.title, ...textsOf(p)]) expect(text, word).not.toContain(t);
  }
  // … while the index answers for public words.
  expect(JSON.parse(await search('', 'Dierikon')).records.length).toBeGreaterThan(0);
  const feed = await raw('/api/news-feed?lang=en');
  expect(feed.status).toBe(200);
  for (const p of protectedPages) expect(feed.text).not.toContain(p.content.en!.title);
});

/** `grep -rFo` (fixed strings, all needles in one pass) below `dirs`, in the text files: `file:needle` per hit. */
async function grepFixed(needles: readonly string[], dirs: readonly string[]): Promise<string[]> {
  const file = test.info().outputPath(`needles-${needles.length}.txt`);
  writeFileSync(file, `${needles.join('\n')}\n`);
  const include = ['html', 'json', 'xml', 'txt', 'js', 'mjs', 'css'].map((e) => `--include=*.${e}`);
  return new Promise((resolve, reject) => {
    execFile('grep', ['-r', '-F', '-o', '-f', file, ...include, ...dirs], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      // grep exits 1 when nothing matched, 2 on trouble.
      if (err && err.code !== 1) reject(new Error(`grep failed: ${stderr || err.message}`));
      else resolve(stdout.split('\n').filter(Boolean));
    });
  });
}

test('no static file, payload, sitemap, search index or client bundle holds a protected page\'s texts or password hash', async () => {
  test.setTimeout(180_000);
  const needles = new Set<string>();
  for (const p of protectedPages) for (const t of textsOf(p)) { needles.add(t); needles.add(JSON.stringify(t).slice(1, -1)); }
  for (const p of pages) if (p.passwordHash) needles.add(p.passwordHash);
  needles.add('scrypt$');
  expect(needles.size).toBeGreaterThan(60);
  // The served release (every host's HTML, payloads, build meta, sitemaps, robots), the search indexes, the browser bundles.
  const dirs = [join(DIST, 'static', 'live') + '/', join(DIST, 'search'), join(DIST, 'client')];
  // The grep reads them: a public text is found.
  expect((await grepFixed(['Meet us in person'], dirs)).length).toBeGreaterThan(0);
  expect(await grepFixed([...needles], dirs)).toEqual([]);
});
