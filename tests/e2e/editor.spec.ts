import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect, expectNoAxeViolations, hub, PORT, raw } from './fixtures/index.ts';
import { E2E_EDITOR_PASSWORD, editorCookieHeader, editorCookieValue, newEditorSessionValue, signInAsEditor } from './fixtures/editor.ts';

// The editor area (spec §4 Editor, §6, §7): sign-in, the navigation and pages of a stage, the
// translation workflow, logout, and the editor APIs.
const DIST = join(process.cwd(), process.env.DIST_DIR ?? 'dist');
const SUSTAINABILITY = 'cm86g1xcd2xsqlb0racgnpi2o';
const DRAFT_TITLE = 'Sustainability and climate targets 2030';
const DRAFT_NAV_ITEM = 'nav-main-header-upcoming-launch';
const DRAFT_NAV_TITLE = 'Preview: next Lumeca generation';
const NINETY_DAYS = 90 * 24 * 60 * 60;

test('sign-in: a wrong password shows the wrong-password state, the right one the editor area; the cookie survives a browser restart', async ({ page, context, browser, consoleErrors }) => {
  void consoleErrors;
  const first = await page.goto('/en/editor');
  expect(first!.status()).toBe(200);
  expect(first!.headers()['cache-control']).toBe('no-store');
  expect(first!.headers()['x-render']).toBe('on-demand');
  await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  await expect(page.getByRole('heading', { level: 1, name: 'Editor sign-in' })).toBeVisible();
  await expectNoAxeViolations(page);

  // A non-empty password is required: the browser does not send an empty form.
  const password = page.getByLabel('Password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  expect(await password.evaluate((el: HTMLInputElement) => el.validity.valueMissing)).toBe(true);
  await expect(page.getByRole('heading', { level: 1, name: 'Editor sign-in' })).toBeVisible();

  await password.fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('Wrong password. Please try again.');
  await expect(page.getByLabel('Password')).toHaveAttribute('aria-invalid', 'true');
  await expectNoAxeViolations(page);

  await page.getByLabel('Password').fill(E2E_EDITOR_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Editor area' })).toBeVisible();
  await expect(page).toHaveURL(/\/en\/editor$/);

  const cookie = (await context.cookies()).find((c) => c.name === 'kmx_editor');
  expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });
  // The value is a session of its own, which the server confirms (a new one per sign-in).
  expect(cookie!.value).not.toBe(editorCookieValue());
  const confirmed = await raw('/api/editor-area-autentication', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hash: cookie!.value }) });
  expect(JSON.parse(confirmed.text)).toEqual({ success: true });
  const lifetime = cookie!.expires - Date.now() / 1000;
  expect(lifetime).toBeGreaterThan(NINETY_DAYS - 3600);
  expect(lifetime).toBeLessThanOrEqual(NINETY_DAYS + 60);

  // A "browser restart": a new browser context made from the saved state (persistent cookies only).
  const state = await context.storageState();
  const restarted = await browser.newContext({ storageState: state });
  try {
    const again = await restarted.newPage();
    await again.goto('/en/editor');
    await expect(again.getByRole('heading', { level: 1, name: 'Editor area' })).toBeVisible();
  } finally {
    await restarted.close();
  }
});

test('the editor area: DRAFT shows the draft-only page and the draft title, PUBLISHED and the public API do not', async ({ page, context, consoleErrors }) => {
  void consoleErrors;
  await signInAsEditor(context);
  await page.goto('/en/editor?site=site-main&lang=en&stage=PUBLISHED');
  const pages = page.locator('[data-editor-pages]');
  const nav = page.locator('.editor-nav');
  await expect(page.getByRole('heading', { level: 2, name: /^Pages/ })).toBeVisible();
  await expect(pages.getByRole('heading', { level: 3, name: 'Sustainability', exact: false }).first()).toBeVisible();
  await expect(pages).not.toContainText(DRAFT_TITLE);
  await expect(page.locator(`[data-nav-id="${DRAFT_NAV_ITEM}"]`)).toHaveCount(0);
  // A hidden item whose page is published shows in every stage, marked.
  await expect(nav.locator('[data-nav-id="nav-main-footer-trade-fair-shortcut"]').getByText('Hidden')).toBeVisible();
  await expectNoAxeViolations(page);

  await page.getByLabel('Stage').selectOption('DRAFT');
  await page.getByRole('button', { name: 'Show' }).click();
  await expect(page).toHaveURL(/[?&]stage=DRAFT/);
  const item = page.locator(`[data-nav-id="${DRAFT_NAV_ITEM}"]`);
  await expect(item.getByRole('link', { name: DRAFT_NAV_TITLE })).toHaveAttribute('href', '/en/upcoming-launch');
  await expect(item.getByText('Hidden')).toBeVisible();
  await expect(pages.getByRole('heading', { level: 3, name: DRAFT_TITLE })).toBeVisible();
  const upcoming = pages.locator('li').filter({ has: page.locator('code', { hasText: '/upcoming-launch' }) });
  await expect(upcoming.getByText('Draft only')).toBeVisible();
  await expect(upcoming.getByRole('link', { name: /^Preview/ })).toHaveAttribute('href', '/en/upcoming-launch?preview=DRAFT');
  await expect(page.locator(`#page-${SUSTAINABILITY}`).getByRole('link', { name: /^Preview/ })).toHaveAttribute('href', '/en/about-us/sustainability?preview=DRAFT');
  await expectNoAxeViolations(page);

  // Visitors: the public navigation API and the public page never carry the draft.
  const api = await raw('/api/site-navigation/public/site-main?lang=en');
  expect(api.status).toBe(200);
  expect(api.headers['cache-control']).toMatch(/^public, max-age=\d+/);
  expect(api.text).not.toContain(DRAFT_NAV_ITEM);
  expect(api.text).not.toContain(DRAFT_NAV_TITLE);
  expect(JSON.parse(api.text)).toMatchObject({ site: { headerNavigation: { homeItems: expect.any(Array), topItems: expect.any(Array) }, footerNavigation: { navigationSections: expect.any(Array) } } });
  const publicPage = await raw('/en/about-us/sustainability');
  expect(publicPage.status).toBe(200);
  expect(publicPage.text).not.toContain(DRAFT_TITLE);
});

test('previewing a page of a site on its own host carries the editor session there (handoff), and only there', async ({ page, context, consoleErrors }) => {
  void consoleErrors;
  await signInAsEditor(context);
  await page.goto('/en/editor?site=site-events-na&lang=en&stage=DRAFT');
  const webinars = page.locator('[data-editor-pages] li').filter({ has: page.locator('code', { hasText: '/webinars' }) });
  const link = webinars.getByRole('link', { name: /^Preview/ });
  await expect(link).toHaveAttribute('href', /^\/api\/editor\/preview-handoff\?to=/);
  await link.click();
  await expect(page).toHaveURL(`http://events.localhost:${PORT}/en/webinars`);
  await expect(page.getByRole('region', { name: 'Draft preview' })).toBeVisible();
  const cookies = await context.cookies(`http://events.localhost:${PORT}/`);
  expect(cookies.find((c) => c.name === 'kmx_editor')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

  // The endpoint is no open redirect, and a token is worth nothing without a valid signature.
  const evil = await raw(`/api/editor/preview-handoff?to=${encodeURIComponent('https://evil.example/en')}`, { headers: { cookie: editorCookieHeader() } });
  expect(evil.status).toBe(400);
  const forged = await raw('/en/webinars?preview=DRAFT&editor-handoff=forged.value', { host: 'events.localhost' });
  expect(forged.status).toBe(302);
  expect(forged.headers['set-cookie']).toBeUndefined();
});

/**
 * Runs `work` with the content hub's translation clock standing still (`step` moves the page's job
 * one state on), then puts the page's translation and the clock back, whatever happened.
 */
async function withTranslationSteps(work: (step: () => Promise<unknown>) => Promise<void>): Promise<void> {
  await hub('mutation { setTranslationClock(stepMs: 0) }');
  try {
    await work(() => hub(`mutation { advanceTranslation(pageId: "${SUSTAINABILITY}") { pageId } }`));
  } finally {
    await hub(`mutation { resetTranslation(pageId: "${SUSTAINABILITY}") { pageId } }`);
    await hub('mutation { setTranslationClock(stepMs: 2500) }');
  }
}

test('a translation started by the no-script form is followed once the page has loaded', async ({ page, context, consoleErrors }) => {
  void consoleErrors;
  await withTranslationSteps(async (step) => {
    await signInAsEditor(context);
    // What a click before the script ran does: the form's POST starts the job and redirects to the row.
    const address = '/en/editor?site=site-main&lang=en&stage=PUBLISHED';
    const started = await page.request.post(address, { form: { intent: 'start', pageId: SUSTAINABILITY }, headers: { origin: `http://localhost:${PORT}` }, maxRedirects: 0 });
    expect(started.status()).toBe(303);
    expect(started.headers().location).toBe(`${address}#page-${SUSTAINABILITY}`);
    await page.goto(started.headers().location!);
    const state = page.locator(`#page-${SUSTAINABILITY} [data-translation-state]`);
    await expect(state).toHaveText('Marked for translation');
    await step();
    await expect(state).toHaveText('In progress');
    await step();
    await expect(state).toHaveText('Translated');
  });
});

test('translations: start, watch InProgress and Translated, reset', async ({ page, context, consoleErrors }) => {
  void consoleErrors;
  // The content hub's clock stands still: this test moves the job one step at a time.
  await withTranslationSteps(async (step) => {
    await signInAsEditor(context);
    await page.goto('/en/editor?site=site-main&lang=en&stage=PUBLISHED');
    const row = page.locator(`#page-${SUSTAINABILITY}`);
    const state = row.locator('[data-translation-state]');

    await row.getByRole('button', { name: /^Start translation/ }).click();
    await expect(state).toHaveText('Marked for translation');
    await step();
    await expect(state).toHaveText('In progress');
    await step();
    await expect(state).toHaveText('Translated');
    await row.getByText(/^Target languages/).click();
    const german = row.locator('tr[data-language="de"] td');
    await expect(german.nth(0)).toHaveText('Translated');
    await expect(german.nth(1)).toHaveText(/UTC$/);
    await expect(german.nth(2)).toHaveText(/UTC$/);

    await row.getByRole('button', { name: /^Reset translation/ }).click();
    await expect(state).toHaveText('Marked for translation');
    await expect(german.nth(1)).toHaveText('–');

    const answer = await page.request.get(`/api/translation/state/${SUSTAINABILITY}`);
    expect(answer.status()).toBe(200);
    const body = await answer.json() as { sourceLanguage: string; translationState: string; targetLanguages: { language: string; translationState: string; exportedAt: string | null; importedAt: string | null }[] };
    expect(body.sourceLanguage).toBe('en');
    expect(body.translationState).toBe('MarkedForTranslation');
    expect(body.targetLanguages.every((t) => t.translationState === 'MarkedForTranslation' && t.exportedAt === null && t.importedAt === null)).toBe(true);

    // A reload shows the same state (rendered on the server).
    await page.reload();
    await expect(page.locator(`#page-${SUSTAINABILITY} [data-translation-state]`)).toHaveText('Marked for translation');
  });
});

test('logout clears the editor cookie', async ({ page, context, consoleErrors }) => {
  void consoleErrors;
  await signInAsEditor(context);
  await page.goto('/de/editor');
  await expect(page.getByRole('heading', { level: 1, name: 'Redaktionsbereich' })).toBeVisible();
  await page.getByRole('button', { name: 'Abmelden' }).click();
  await expect(page).toHaveURL(/\/de\/editor$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Anmeldung Redaktion' })).toBeVisible();
  expect((await context.cookies()).some((c) => c.name === 'kmx_editor')).toBe(false);
});

test('after logout the old cookie no longer opens the editor area or its APIs (the session is revoked, not only the cookie cleared)', async ({ page, context, consoleErrors }) => {
  void consoleErrors;
  const old = await signInAsEditor(context);
  await page.goto('/en/editor');
  await expect(page.getByRole('heading', { level: 1, name: 'Editor area' })).toBeVisible();
  await page.getByRole('button', { name: 'Log out' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Editor sign-in' })).toBeVisible();

  // The cookie as it was before the logout (a copy kept by whoever had it).
  await context.addCookies([{ name: 'kmx_editor', value: old, domain: 'localhost', path: '/', httpOnly: true, sameSite: 'Lax' }]);
  await page.goto('/en/editor');
  await expect(page.getByRole('heading', { level: 1, name: 'Editor sign-in' })).toBeVisible();
  const api = await raw('/api/site-navigation/editor/site-main?lang=en&stage=DRAFT', { headers: { cookie: `kmx_editor=${old}` } });
  expect(api.status).toBe(401);
  const recheck = await raw('/api/editor-area-autentication', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ hash: old }) });
  expect(JSON.parse(recheck.text)).toEqual({ success: false });
  // Other sessions live on.
  expect((await raw('/api/site-navigation/editor/site-main?lang=en&stage=DRAFT', { headers: { cookie: editorCookieHeader() } })).status).toBe(200);
});

test('a cross-site POST with the editor cookie is refused (403, a clear message); a same-origin one goes through', async () => {
  // A session of this test's own: a logout that got through would end it.
  const cookie = `kmx_editor=${await newEditorSessionValue()}`;
  const crossSite: Record<string, string>[] = [
    { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    { origin: 'https://evil.example' },
    // Another site of the platform on a sibling host: same-site, but not the same origin.
    { origin: `http://events.localhost:${PORT}`, 'sec-fetch-site': 'same-site' },
  ];
  for (const path of [`/api/translation/start/${SUSTAINABILITY}`, `/api/translation/reset/${SUSTAINABILITY}`, '/api/editor-area-autentication/logout']) {
    for (const headers of crossSite) {
      const res = await raw(path, { method: 'POST', headers: { 'content-type': 'application/json', cookie, ...headers }, body: '{}' });
      expect(res.status, `${path} ${JSON.stringify(headers)}`).toBe(403);
      expect(JSON.parse(res.text)).toMatchObject({ error: 'cross-site-request', message: expect.stringMatching(/^Cross-site request refused: /) });
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  }
  const signIn = await raw('/api/editor-area-autentication', { method: 'POST', headers: { 'content-type': 'application/json', origin: 'https://evil.example' }, body: JSON.stringify({ input: E2E_EDITOR_PASSWORD }) });
  expect(signIn.status).toBe(403);
  // The session is untouched, and the same request from the site's own origin is answered.
  const sameOrigin = { 'content-type': 'application/json', cookie, origin: `http://localhost:${PORT}`, 'sec-fetch-site': 'same-origin' };
  const recheck = await raw('/api/editor-area-autentication', { method: 'POST', headers: sameOrigin, body: JSON.stringify({ hash: cookie.slice('kmx_editor='.length) }) });
  expect(recheck.status).toBe(200);
  expect(JSON.parse(recheck.text)).toEqual({ success: true });
  const logout = await raw('/api/editor-area-autentication/logout', { method: 'POST', headers: sameOrigin, body: '{}' });
  expect(logout.status).toBe(200);
  expect((await raw('/api/site-navigation/editor/site-main?lang=en&stage=DRAFT', { headers: { cookie } })).status).toBe(401);
});

test('a handoff token works once, and only on the exact host it was made for', async () => {
  const to = `http://events.localhost:${PORT}/en/webinars?preview=DRAFT`;
  const start = await raw(`/api/editor/preview-handoff?to=${encodeURIComponent(to)}`, { headers: { cookie: editorCookieHeader() } });
  expect(start.status).toBe(302);
  const target = new URL(String(start.headers.location));
  expect(target.searchParams.get('editor-handoff')).toBeTruthy();
  const path = `${target.pathname}${target.search}`;
  // Another site's host, or the right host name on another port: no cookie (and the token is not used up).
  for (const host of [`partner.localhost:${PORT}`, `events.localhost:${PORT + 1}`]) {
    const res = await raw(path, { headers: { host } });
    expect(res.status, host).toBe(302);
    expect(res.headers['set-cookie'], host).toBeUndefined();
  }
  const first = await raw(path, { host: 'events.localhost' });
  expect(first.status).toBe(302);
  expect(first.headers.location).toBe('/en/webinars?preview=DRAFT');
  expect(String(first.headers['set-cookie'])).toMatch(/^kmx_editor=[\w.-]+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax/);
  const again = await raw(path, { host: 'events.localhost' });
  expect(again.status).toBe(302);
  expect(again.headers['set-cookie']).toBeUndefined();
});

test('the editor APIs need the cookie; the editor area is main-site only, never static', async () => {
  for (const path of ['/api/site-navigation/editor/site-main?lang=en&stage=DRAFT', `/api/translation/state/${SUSTAINABILITY}`]) {
    const res = await raw(path);
    expect(res.status, path).toBe(401);
    expect(res.headers['cache-control']).toBe('no-store');
  }
  const post = { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' };
  expect((await raw(`/api/translation/start/${SUSTAINABILITY}`, post)).status).toBe(401);
  expect((await raw(`/api/translation/reset/${SUSTAINABILITY}`, post)).status).toBe(401);
  const get = await raw(`/api/translation/start/${SUSTAINABILITY}`, { headers: { cookie: editorCookieHeader() } });
  expect(get.status).toBe(405);
  expect(get.headers.allow).toBe('POST');
  const withCookie = await raw('/api/site-navigation/editor/site-main?lang=en&stage=DRAFT', { headers: { cookie: editorCookieHeader() } });
  expect(withCookie.status).toBe(200);
  expect(withCookie.text).toContain(DRAFT_NAV_ITEM);
  expect((await raw('/api/site-navigation/editor/site-main?lang=en&stage=LIVE', { headers: { cookie: editorCookieHeader() } })).status).toBe(400);
  expect((await raw('/api/site-navigation/public/site-nope?lang=en')).status).toBe(404);

  const json = { 'content-type': 'application/json' };
  const signIn = await raw('/api/editor-area-autentication', { method: 'POST', headers: json, body: JSON.stringify({ input: E2E_EDITOR_PASSWORD }) });
  expect(signIn.status).toBe(200);
  const { hashedPassword } = JSON.parse(signIn.text) as { hashedPassword: string };
  expect(JSON.parse(signIn.text)).toEqual({ success: true, hashedPassword: expect.any(String) });
  expect(hashedPassword).not.toBe(editorCookieValue());
  expect(String(signIn.headers['set-cookie'])).toMatch(new RegExp(`kmx_editor=${hashedPassword.replace(/[.]/g, '\\.')}; Max-Age=${NINETY_DAYS}; Path=/; HttpOnly; SameSite=Lax`));
  const recheck = await raw('/api/editor-area-autentication', { method: 'POST', headers: json, body: JSON.stringify({ hash: editorCookieValue() }) });
  expect(JSON.parse(recheck.text)).toEqual({ success: true });
  expect(JSON.parse((await raw('/api/editor-area-autentication', { method: 'POST', headers: json, body: JSON.stringify({ hash: 'forged' }) })).text)).toEqual({ success: false });

  // Another site's host: its 404; and no static file for the editor on any host.
  const events = await raw('/en/editor', { host: 'events.localhost', headers: { cookie: editorCookieHeader() } });
  expect(events.status).toBe(404);
  expect(events.headers['cache-control']).toBe('no-store');
  expect(existsSync(join(DIST, 'static', 'live', 'localhost', 'en', 'index.html'))).toBe(true);
  for (const host of ['localhost', 'events.localhost', 'partner.localhost']) expect(existsSync(join(DIST, 'static', 'live', host, 'en', 'editor'))).toBe(false);
});
