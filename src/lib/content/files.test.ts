import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startContentHub } from '../../../emulators/content-hub/server.ts';
import { getFile, getPageByPath, getPageProtection, NO_GRANTS, type ContentContext } from './index.ts';
import { isPasswordHash } from '../crypto/password.ts';
import type { Site } from '../../site/types.ts';

// The file lookup against the content-hub emulator over the demo data: who may have a file follows
// from the pages (and stories, media releases) that link it.
const dataDir = join(dirname(fileURLToPath(import.meta.url)), '../../../emulators/data/content');
const INTERNAL_2025 = 'cmh9fgc1bt1i8bqnbfu0qb06p';
const BRAND_PORTAL_PROTECTED = 'cmq9vyjqr9kbcsmxze12fzdff';
const ROLE_PAGE = 'c6j0cuwhsyydm8jqiv9tf1zc1';
let server: Server;
let en: ContentContext;

beforeAll(async () => {
  const hub = await startContentHub({ port: 0, dataDir, quiet: true });
  server = hub.server;
  en = { config: { endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql` }, locales: ['en'], stage: 'PUBLISHED' };
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('getFile', () => {
  it('serves a file of a public page as public', async () => {
    expect(await getFile(en, 'annual-report-2025', 'en', NO_GRANTS)).toMatchObject({ slug: 'annual-report-2025', access: 'public', fileName: 'annual-report-2025.pdf' });
  });

  it('refuses files of protected pages without their grant', async () => {
    for (const slug of ['event-staff-briefing-2025', 'booth-setup-manual-2025', 'lumeca-logo-master-files', 'lumeca-brand-guidelines']) {
      expect(await getFile(en, slug, 'en', NO_GRANTS), slug).toBeNull();
    }
  });

  it('refuses a file of a child of a protected page', async () => {
    expect(await getFile(en, 'booth-crew-shift-plan-2025', 'en', NO_GRANTS)).toBeNull();
    expect(await getFile(en, 'booth-crew-shift-plan-2025', 'en', new Set(['cmq4x7t2k9v3n8b5z1w6r0yhd']))).toBeNull();
  });

  it('serves a protected file privately with the protecting page\'s grant', async () => {
    expect(await getFile(en, 'event-staff-briefing-2025', 'en', new Set([INTERNAL_2025]))).toMatchObject({ access: 'granted' });
    expect(await getFile(en, 'booth-crew-shift-plan-2025', 'en', new Set([INTERNAL_2025]))).toMatchObject({ access: 'granted' });
    expect(await getFile(en, 'lumeca-logo-master-files', 'en', new Set([INTERNAL_2025]))).toBeNull();
    expect(await getFile(en, 'lumeca-logo-master-files', 'fr', new Set([BRAND_PORTAL_PROTECTED]))).toMatchObject({ access: 'granted', locale: 'fr' });
  });

  it('keeps a file public that a protected and a public page both link', async () => {
    expect(await getFile(en, 'code-of-conduct', 'en', NO_GRANTS)).toMatchObject({ access: 'public' });
  });

  it('is null for an unknown file', async () => {
    expect(await getFile(en, 'no-such-file', 'en', NO_GRANTS)).toBeNull();
  });
});

describe('page protection', () => {
  it('protects a child of a protected page and names the page whose grant opens it', async () => {
    const site = { id: 'site-main' } as Site;
    expect(await getPageByPath(en, site, '/events/internal-2025')).toMatchObject({ protection: 1, protectedBy: [INTERNAL_2025] });
    expect(await getPageByPath(en, site, '/events/internal-2025/x4m9q2tz')).toMatchObject({ protection: 1, protectedBy: [INTERNAL_2025] });
    expect(await getPageByPath(en, site, '/events')).toMatchObject({ protection: 0, protectedBy: [] });
  });
});

describe('getPageProtection', () => {
  it('answers a password page\'s hash and a role page\'s role, never both, and nothing for a public page', async () => {
    const password = await getPageProtection(en, INTERNAL_2025);
    expect(password).toMatchObject({ id: INTERNAL_2025, protection: 1, requiredRole: null });
    expect(isPasswordHash(password!.passwordHash!)).toBe(true);
    expect(await getPageProtection(en, ROLE_PAGE)).toEqual({ id: ROLE_PAGE, protection: 2, passwordHash: null, requiredRole: 'kmx_int_serviceticketing_active' });
    expect(await getPageProtection(en, 'cmq4x7t2k9v3n8b5z1w6r0yhd')).toEqual({ id: 'cmq4x7t2k9v3n8b5z1w6r0yhd', protection: 0, passwordHash: null, requiredRole: null });
    expect(await getPageProtection(en, 'no-such-page')).toBeNull();
  });

  it('never puts the hash into a page answer', async () => {
    const page = await getPageByPath(en, { id: 'site-main' } as Site, '/events/internal-2025');
    expect(JSON.stringify(page)).not.toContain('scrypt$');
  });
});
