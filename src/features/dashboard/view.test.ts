import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import { pickMessages } from '../../i18n/island.ts';
import { computeTiles, type CustomerAreaSettings, type TilePaths } from './tiles.ts';
import { MESSAGE_KEYS, tileViews, type TileView } from './view.ts';

const m = pickMessages(((k: string) => (en as Record<string, string>)[k] ?? `missing:${k}`) as never, MESSAGE_KEYS);
const settings: CustomerAreaSettings = {
  directServiceUrl: 'https://direct.example.test/',
  directRegistrationUrl: 'https://idp.example.test/am/XUI/?realm=alpha',
  wireFlowCloudUrl: 'https://wire-flow.example.test/',
  masterDataWmUrl: 'https://mdwm.example.test/',
  masterDataMdsUrl: 'https://mdmds.example.test/',
  campusUrl: 'https://campus.example.test/',
  requestAccessUrl: '/en/contact',
  comingSoon: ['masterDataMds'],
};
const paths: TilePaths = { tickets: '/en/mykomax/tickets/list', inventory: '/en/mykomax/inventory', userAdmin: '/en/mykomax/user-admin', wireFlow: '/en/mykomax/wire-flow', dashboardUrl: 'http://localhost/en/mykomax' };
const views = (roles: string[], s = settings): Record<string, TileView> => Object.fromEntries(tileViews(computeTiles(roles, s, paths), m).map((v) => [v.service, v]));

describe('tileViews', () => {
  it('every message key exists in en', () => {
    for (const k of MESSAGE_KEYS) expect(en, k).toHaveProperty([k]);
  });

  it('each action\'s accessible name starts with its visible text (WCAG 2.5.3), in every language', async () => {
    for (const lang of ['cs', 'de', 'en', 'es', 'fr', 'hu', 'ja', 'pt', 'ro', 'sk', 'zh']) {
      const messages = (await import(`../../../locales/${lang}.json`, { with: { type: 'json' } })).default as Record<string, string>;
      const ml = pickMessages(((k: string) => messages[k] ?? `missing:${k}`) as never, MESSAGE_KEYS);
      for (const view of tileViews(computeTiles(['kmx_int_artemis_active', 'kmx_int_lmsefront_invited'], settings, paths), ml)) {
        for (const a of view.actions) expect(a.ariaLabel.startsWith(a.label) && a.ariaLabel.includes(view.title), `${lang} ${a.ariaLabel}`).toBe(true);
      }
    }
  });

  it('an active tile opens its target, named for the service; no note', () => {
    const v = views(['kmx_int_serviceticketing_active']).serviceTicketing!;
    expect(v).toMatchObject({ title: 'Service tickets', statusText: 'Active', statusLabel: 'Status: Active', note: null, detail: null });
    expect(v.actions).toEqual([{ kind: 'open', label: 'Open', ariaLabel: 'Open: Service tickets', href: '/en/mykomax/tickets/list' }]);
  });

  it('wire-flow: cloud users get the cloud service too, on-prem users the download centre only', () => {
    const cloud = views(['kmx_int_artemis_active']).wireFlow!;
    expect(cloud.detail).toBe('Cloud');
    expect(cloud.actions.map((a) => [a.kind, a.href])).toEqual([['open', '/en/mykomax/wire-flow'], ['openCloud', 'https://wire-flow.example.test/']]);
    const onprem = views(['kmx_int_artemis_active', 'kmx_artemis_onpremuser']).wireFlow!;
    expect(onprem.detail).toBe('On-premises installation');
    expect(onprem.actions.map((a) => a.kind)).toEqual(['open']);
    expect(views([]).wireFlow!.detail).toBeNull();
  });

  it('direct: unregistered registers (with the return address), pending has no action', () => {
    const reg = views([]).direct!;
    expect(reg.statusText).toBe('Unregistered');
    expect(reg.actions).toHaveLength(1);
    expect(reg.actions[0]).toMatchObject({ kind: 'register', label: 'Register', ariaLabel: 'Register: Komax Direct' });
    expect(new URL(reg.actions[0]!.href).searchParams.get('goto')).toBe('http://localhost/en/mykomax');
    const pending = views(['kmx_int_direct_pending']).direct!;
    expect(pending).toMatchObject({ statusText: 'Pending', note: 'Your registration is being reviewed.', actions: [] });
  });

  it('campus: invited accepts at the service, an expired invite asks for access again', () => {
    expect(views(['kmx_int_lmsefront_invited']).campus!.actions).toEqual([{ kind: 'acceptInvite', label: 'Accept invitation', ariaLabel: 'Accept invitation: Komax Campus', href: 'https://campus.example.test/' }]);
    const expired = views(['kmx_int_lmsefront_inviteexpired']).campus!;
    expect(expired.statusText).toBe('Invite expired');
    expect(expired.actions.map((a) => [a.kind, a.href])).toEqual([['requestAccess', '/en/contact']]);
  });

  it('coming soon has no action; unregistered services ask for access; an action without an address is left out', () => {
    expect(views([]).masterDataMds).toMatchObject({ statusText: 'Coming soon', note: 'This service will be available soon.', actions: [] });
    expect(views([]).inventory!.actions.map((a) => a.kind)).toEqual(['requestAccess']);
    const bare = views([], { ...settings, requestAccessUrl: null, directRegistrationUrl: null, campusUrl: null });
    expect(bare.inventory).toMatchObject({ statusText: 'Not available', note: 'This service cannot be requested online. Please contact us.', actions: [] });
    expect(bare.direct).toMatchObject({ statusText: 'Not available', actions: [] });
    expect(views(['kmx_int_lmsefront_active'], { ...settings, campusUrl: null }).campus!.actions).toEqual([]);
  });
});
