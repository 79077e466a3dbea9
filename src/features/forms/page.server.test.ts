import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentHub } from '../../../emulators/content-hub/server.ts';
import { getFormSubmissions } from '../../lib/content/index.ts';
import { fixedT } from '../../i18n/index.ts';
import { makeLocale } from '../../site/locale.ts';
import { loadFormPage } from './page.server.ts';

/** A port nothing listens on: the content hub stopped. */
let down: string;
beforeAll(async () => {
  const probe = createServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  down = `http://127.0.0.1:${(probe.address() as AddressInfo).port}/graphql`;
  await new Promise<void>((r) => probe.close(() => r()));
});

let hub: Awaited<ReturnType<typeof startContentHub>>;
beforeAll(async () => { hub = await startContentHub({ port: 0, dataDir: join(dirname(fileURLToPath(import.meta.url)), '../../../emulators/data/content'), quiet: true }); });
afterAll(async () => { hub.server.closeAllConnections(); await new Promise<void>((r) => hub.server.close(() => r())); });

const locals = (endpoint?: string) => ({
  page: {
    request: { site: { id: 'site-main', headerNavigationId: 'h', footerNavigationId: 'f' }, locale: makeLocale('en', null) },
    t: fixedT('en'),
    system: { countries: [{ countryCode: 'CH', hidden: false }] },
    content: { config: { endpoint: endpoint ?? down, connectTimeoutMs: 500, timeoutMs: 1000 }, locales: ['en'], stage: 'PUBLISHED' },
    data: { get: (_key: unknown, load: () => Promise<unknown>) => load() },
  },
}) as unknown as App.Locals;

const post = (kind: string, fields: Record<string, string>, client: string) => ({
  params: { kind },
  request: new Request(`http://localhost/en/forms/${kind}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() }),
  url: new URL(`http://localhost/en/forms/${kind}`),
  clientAddress: client,
});

const contact = { lang: 'en', name: 'Ada', email: 'ada@example.com', company: 'AE', country: 'CH', topic: 'service', message: 'Hello', consent: 'true', returnTo: '/en/about-us' };

describe('the form page (posts without JavaScript)', () => {
  it('answers the spec failure text with every value kept when the content hub is stopped', async () => {
    const page = await loadFormPage(locals(), post('contact', contact, '192.0.2.1'));
    expect(page).toMatchObject({
      kind: 'form', form: 'contact', status: 503, returnTo: '/en/about-us', chrome: { header: null, footer: null },
      state: { values: { name: 'Ada', message: 'Hello' }, status: { kind: 'failed', message: 'Something went wrong. Please verify your input is correct and try again later.' } },
    });
  });

  it('answers 400 with the messages and the values, and never links back to another origin', async () => {
    const page = await loadFormPage(locals(), post('contact', { ...contact, email: 'nope', consent: '', returnTo: '//evil.example/x' }, '192.0.2.2'));
    expect(page).toMatchObject({ status: 400, returnTo: null, state: { values: { email: 'nope' }, errors: { email: 'Please provide a valid email address', consent: 'Please select the checkbox to continue' } } });
  });

  it('shows the form with the values a product page\'s quote link names, and nothing else from the query', async () => {
    const url = new URL('http://localhost/en/forms/contact?topic=products&product=Kappa%20310&email=x%40example.com&from=%2Fen%2Fproducts%2Fkappa-310');
    const page = await loadFormPage(locals(), { params: { kind: 'contact' }, request: new Request(url), url });
    expect(page).toMatchObject({ kind: 'form', status: 200, returnTo: '/en/products/kappa-310', state: { values: { topic: 'products', product: 'Kappa 310' } } });
    expect(page.kind === 'form' && page.state.values).toEqual({ topic: 'products', product: 'Kappa 310' });
  });

  it('answers a filled honeypot like a success', async () => {
    const page = await loadFormPage(locals(), post('contact', { website: 'spam' }, '192.0.2.3'));
    expect(page).toMatchObject({ status: 200, state: { status: { kind: 'sent' } } });
  });

  it('stores the same post from the same client once (a reload or a second click without JavaScript), another client\'s separately', async () => {
    const message = `no-js ${Date.now()}`;
    const count = async () => (await getFormSubmissions({ config: { endpoint: hub.url }, locales: ['en'], stage: 'PUBLISHED' }, 'contact', 500)).filter((s) => s.fields.message === message).length;
    const first = await loadFormPage(locals(hub.url), post('contact', { ...contact, message }, '192.0.2.10'));
    const again = await loadFormPage(locals(hub.url), post('contact', { ...contact, message }, '192.0.2.10'));
    expect([first, again]).toMatchObject([{ status: 200, state: { status: { kind: 'sent' } } }, { status: 200, state: { status: { kind: 'sent' } } }]);
    expect(await count()).toBe(1);
    await loadFormPage(locals(hub.url), post('contact', { ...contact, message }, '192.0.2.11'));
    expect(await count()).toBe(2);
  });
});
