import type { Page } from '@playwright/test';
import { test, expect, expectNoAxeViolations, hub, raw } from './fixtures/index.ts';

/** Demo data the editorial tests rely on (emulators/data/content/editorial). */
const STORY = {
  slug: 'carpatia-doubles-crimping-output',
  title: 'How Carpatia Cable Systems doubled its crimping output without adding floor space',
  titleDe: 'Wie Carpatia Cable Systems seine Crimpleistung verdoppelte, ohne mehr Fläche zu brauchen',
  contact: 'Jonas Baumann',
  contactSlug: 'jonas-baumann',
};
const ADHOC_RELEASE = { slug: 'annual-results-2025', title: 'Komax group closes 2025 with higher sales and improved profitability' };

/** The news bell is plain HTML whose unread marker follows the first page of the feed: wait for it. */
async function newsBellChecked(page: Page, load: Promise<unknown>): Promise<void> {
  await load;
  await expect(page.getByRole('button', { name: /^News/, expanded: false })).toBeVisible();
}

const feedAnswer = (page: Page) => page.waitForResponse((r) => r.url().includes('/api/news-feed?'));

test.describe('story overview', () => {
  test('filters by category and pages with plain links', async ({ page, consoleErrors }) => {
    const { stories } = await hub<{ stories: { total: number } }>('{ stories(first: 1) { total } }');
    const { technology } = await hub<{ technology: { total: number } }>('{ technology: stories(category: "technology", first: 1) { total } }');

    await page.goto('/en/stories');
    await expect(page.getByRole('heading', { level: 1, name: 'Stories' })).toBeVisible();
    const filter = page.getByRole('navigation', { name: 'Filter stories by category' });
    await expect(filter.getByRole('link', { name: /^All stories/ })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByRole('list', { name: 'All stories' }).getByRole('article')).toHaveCount(12);
    await expect(page.getByText(`Showing 1–12 of ${stories.total} stories`)).toBeVisible();

    await filter.getByRole('link', { name: /^Technology/ }).click();
    await expect(page).toHaveURL(/\/en\/stories\?category=technology$/);
    await expect(filter.getByRole('link', { name: /^Technology/ })).toHaveAttribute('aria-current', 'page');
    const cards = page.getByRole('list', { name: 'Technology' }).getByRole('article');
    await expect(cards).toHaveCount(Math.min(12, technology.total));
    for (const card of await cards.all()) await expect(card).toContainText('Technology');

    await page.goto('/en/stories');
    const pager = page.getByRole('navigation', { name: 'Story pages' });
    await pager.getByRole('link', { name: 'Next' }).click();
    await expect(page).toHaveURL(/\/en\/stories\?page=2$/);
    await expect(pager.getByRole('link', { name: /^Page 2 of/ })).toHaveAttribute('aria-current', 'page');
    await expect(page.getByText(`Showing 13–24 of ${stories.total} stories`)).toBeVisible();
    const last = Math.ceil(stories.total / 12);
    await pager.getByRole('link', { name: `Page ${last}`, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`\\?page=${last}$`));
    await expect(page.getByRole('list', { name: 'All stories' }).getByRole('article')).toHaveCount(stories.total - (last - 1) * 12);
    expect(consoleErrors).toEqual([]);
  });

  test('the unfiltered first page is static, filtered and later pages render on demand', async () => {
    expect((await raw('/en/stories')).headers['x-render']).toBe('prerendered');
    const filtered = await raw('/en/stories?category=technology');
    expect(filtered.headers['x-render']).toBe('on-demand');
    expect(filtered.text).toContain('aria-current="page"');
    expect((await raw('/en/stories?page=2')).headers['x-render']).toBe('on-demand');
    expect((await raw('/en/media-releases?page=2')).headers['x-render']).toBe('on-demand');
  });

  test('an unknown category, a page past the end and other sites are 404', async () => {
    expect((await raw('/en/stories?category=no-such-category')).status).toBe(404);
    expect((await raw('/en/stories?page=99')).status).toBe(404);
    expect((await raw('/en/stories?page=abc')).status).toBe(404);
    expect((await raw('/en/stories/no-such-story')).status).toBe(404);
    expect((await raw('/en/stories', { host: 'events.localhost' })).status).toBe(404);
    expect((await raw(`/en/stories/${STORY.slug}`, { host: 'partner.localhost' })).status).toBe(404);
    expect((await raw('/en/brand-portal/stories')).status).toBe(404);
    expect((await raw('/en/media-releases', { host: 'events.localhost' })).status).toBe(404);
  });
});

test.describe('story detail', () => {
  test('shows the story, its date in the page locale, contacts and share links', async ({ page, consoleErrors }) => {
    await page.goto(`/en/stories/${STORY.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: STORY.title })).toBeVisible();
    await expect(page.getByRole('article').getByText('November 18, 2025')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'At a glance' })).toBeVisible();
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: 'Stories' })).toHaveAttribute('href', '/en/stories');

    const contacts = page.getByRole('region', { name: 'Contacts for this story' });
    const portrait = contacts.getByRole('img', { name: `Portrait of ${STORY.contact}` });
    await expect(portrait).toHaveAttribute('width', '80');
    await expect(portrait).toHaveAttribute('height', '80');
    expect(await portrait.boundingBox()).toMatchObject({ width: 80, height: 80 });

    const url = encodeURIComponent(`${new URL(page.url()).origin}/en/stories/${STORY.slug}`);
    const linkedin = page.getByRole('link', { name: /Share on LinkedIn/ });
    await expect(linkedin).toHaveAttribute('href', `https://www.linkedin.com/sharing/share-offsite/?url=${url}`);
    await expect(linkedin).toHaveAttribute('rel', /noopener/);
    await expect(page.getByRole('link', { name: /Share on X/ })).toHaveAttribute('href', new RegExp(`^https://x\\.com/intent/post\\?url=${url.replace(/[.*+?^${}()|[\]\\%]/g, '\\$&')}`));
    await expect(page.getByRole('link', { name: /Share on Facebook/ })).toHaveAttribute('href', `https://www.facebook.com/sharer/sharer.php?u=${url}`);
    await expect(page.getByRole('link', { name: 'Share by e-mail' })).toHaveAttribute('href', /^mailto:\?subject=How%20Carpatia/);

    await contacts.getByRole('link', { name: STORY.contact }).click();
    await expect(page).toHaveURL(`/en/stories/contacts/${STORY.contactSlug}`);
    await expect(page.getByRole('heading', { level: 1, name: STORY.contact })).toBeVisible();
    const { storiesByContact } = await hub<{ storiesByContact: unknown[] }>(`{ storiesByContact(slug: "${STORY.contactSlug}") { id } }`);
    await expect(page.getByRole('region', { name: `Stories with ${STORY.contact}` }).getByRole('article')).toHaveCount(storiesByContact.length);
    expect(consoleErrors).toEqual([]);
  });

  test('is German with a de-CH date on /de-ch, and lists all contacts', async ({ page }) => {
    await page.goto(`/de-ch/stories/${STORY.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: STORY.titleDe })).toBeVisible();
    await expect(page.getByRole('article').getByText('18. November 2025')).toBeVisible();
    await page.goto('/en/stories/contacts');
    const { storyContacts } = await hub<{ storyContacts: { name: string }[] }>('{ storyContacts { name } }');
    for (const c of storyContacts) await expect(page.getByRole('heading', { level: 2, name: c.name })).toBeVisible();
  });
});

test.describe('story feedback', () => {
  test('empty fields give one message each; a valid form is stored and thanked for', async ({ page, consoleErrors }) => {
    await page.goto(`/en/stories/${STORY.slug}`);
    const form = page.getByRole('region', { name: 'Your feedback' });
    // The form hydrates when it comes into view (client:interaction with visible).
    await form.scrollIntoViewIfNeeded();
    await form.getByRole('button', { name: 'Send feedback' }).click();
    const fields = {
      'First name': 'Please enter your first name',
      'Last name': 'Please enter your last name',
      Company: 'Please enter the company you work for',
      Country: "Please enter the country you're in",
      Message: 'Please enter your message',
    };
    for (const [label, message] of Object.entries(fields)) {
      const field = form.getByLabel(label, { exact: true });
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(message);
    }
    await expect(form.getByLabel('First name', { exact: true })).toBeFocused();

    const firstName = `Ada${Date.now()}`;
    await form.getByLabel('First name', { exact: true }).fill(firstName);
    await expect(form.getByLabel('First name', { exact: true })).not.toHaveAttribute('aria-invalid', 'true');
    await form.getByLabel('Last name', { exact: true }).fill('Muster');
    await form.getByLabel('Company', { exact: true }).fill('ACME AG');
    await form.getByLabel('Country', { exact: true }).selectOption({ label: 'Switzerland' });
    await form.getByLabel('Message', { exact: true }).fill('A very useful story, thank you.');
    await form.getByRole('button', { name: 'Send feedback' }).click();
    await expect(form.getByRole('status')).toContainText('Thank you for your feedback.');
    await expect(form.getByRole('button', { name: 'Send feedback' })).toHaveCount(0);

    const { storyFeedback } = await hub<{ storyFeedback: { firstName: string; country: string; company: string }[] }>(
      `{ storyFeedback(storySlug: "${STORY.slug}") { firstName country company } }`,
    );
    expect(storyFeedback).toContainEqual({ firstName, country: 'CH', company: 'ACME AG' });
    expect(consoleErrors).toEqual([]);
  });

  test('the API validates again: 400 with a message per field, in the page language', async () => {
    const post = (body: unknown) => raw('/api/story-feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const empty = await post({ lang: 'de-ch', storySlug: STORY.slug, firstName: ' ', lastName: '', company: '', country: 'XX', message: '' });
    expect(empty.status).toBe(400);
    const { fields } = JSON.parse(empty.text) as { fields: Record<string, string> };
    expect(fields).toEqual({
      firstName: 'Bitte geben Sie Ihren Vornamen ein',
      lastName: 'Bitte geben Sie Ihren Nachnamen ein',
      company: 'Bitte geben Sie die Firma an, für die Sie arbeiten',
      country: 'Bitte geben Sie einen gültigen Wert ein.',
      message: 'Bitte geben Sie Ihre Nachricht ein',
    });
    expect((await post({ lang: 'en', storySlug: 'no-such-story', firstName: 'A', lastName: 'B', company: 'C', country: 'CH', message: 'M' })).status).toBe(404);
    expect((await post({ storySlug: STORY.slug })).status).toBe(400);
    expect((await raw('/api/story-feedback', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{not json' })).status).toBe(400);
  });
});

test.describe('media releases', () => {
  test('the list marks ad hoc releases visibly and for screen readers', async ({ page, consoleErrors }) => {
    const { mediaReleases } = await hub<{ mediaReleases: { items: { title: string; adhoc: boolean }[] } }>('{ mediaReleases(first: 20) { items { title adhoc } } }');
    const adhoc = mediaReleases.items.filter((m) => m.adhoc);
    expect(adhoc.length).toBeGreaterThan(0);

    await page.goto('/en/media-releases');
    await expect(page.getByRole('heading', { level: 1, name: 'Media releases' })).toBeVisible();
    for (const m of mediaReleases.items) {
      const item = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: m.title, exact: true }) });
      if (m.adhoc) {
        await expect(item).toContainText('Ad hoc announcement');
        await expect(item.getByText('Ad hoc', { exact: true })).toBeVisible();
      } else {
        await expect(item).not.toContainText('Ad hoc');
      }
    }

    await page.getByRole('link', { name: ADHOC_RELEASE.title }).click();
    await expect(page).toHaveURL(`/en/media-releases/${ADHOC_RELEASE.slug}`);
    await expect(page.getByRole('heading', { level: 1, name: ADHOC_RELEASE.title })).toBeVisible();
    await expect(page.getByRole('article')).toContainText('Ad hoc announcement');
    expect(consoleErrors).toEqual([]);
  });
});

test.describe('news feed', () => {
  test('shows an unread marker until opened, loads more pages and remembers the read state', async ({ page, consoleErrors }) => {
    const { newsFeed } = await hub<{ newsFeed: { edges: { node: { id: string; title: string } }[] } }>('{ newsFeed(first: 100) { edges { node { id title } } } }');
    const total = newsFeed.edges.length;

    await page.goto('/en/stories');
    const unreadBell = page.getByRole('button', { name: 'News (unread news)' });
    await expect(unreadBell).toBeVisible();

    await unreadBell.click();
    const dialog = page.getByRole('dialog', { name: 'News' });
    await expect(dialog).toBeVisible();
    const items = dialog.getByRole('listitem');
    await expect(items).toHaveCount(10);
    await expect(items.first()).toContainText(newsFeed.edges[0]!.node.title);
    await expect(page.getByRole('button', { name: 'News (unread news)' })).toHaveCount(0);
    // Literal \n sequences are removed from the text.
    await expect(dialog).toContainText('Dierikon. Register now');
    await expect(dialog).not.toContainText('\\n');

    await dialog.getByRole('button', { name: 'Load more news' }).click();
    await expect(items).toHaveCount(Math.min(20, total));
    await expect(items.nth(10)).toBeFocused();
    await expect(items.nth(10)).toContainText(newsFeed.edges[10]!.node.title);

    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();

    const answered = feedAnswer(page);
    await page.reload();
    await newsBellChecked(page, answered);
    await expect(page.getByRole('button', { name: 'News (unread news)' })).toHaveCount(0);

    // A newer item than the remembered one brings the marker back.
    await page.evaluate(() => localStorage.setItem('komax.newsFeed.lastReadId', 'an-older-item'));
    await page.reload();
    await expect(page.getByRole('button', { name: 'News (unread news)' })).toBeVisible();
    expect(consoleErrors).toEqual([]);
  });

  test('opens from the navigation action, closes with Escape and gives focus back', async ({ page }) => {
    await page.goto('/en');
    const action = page.getByRole('navigation', { name: 'Main navigation' }).getByRole('button', { name: 'News' });
    await action.focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'News' });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Close the news feed' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(action).toBeFocused();
  });

  test('the API pages through the cursor and refuses bad input', async () => {
    const first = await raw('/api/news-feed?lang=en');
    expect(first.status).toBe(200);
    const page1 = JSON.parse(first.text) as { items: { id: string; text: string }[]; hasNextPage: boolean; endCursor: string };
    expect(page1.items).toHaveLength(10);
    expect(page1.hasNextPage).toBe(true);
    const page2 = JSON.parse((await raw(`/api/news-feed?lang=en&after=${encodeURIComponent(page1.endCursor)}`)).text) as { items: { id: string }[] };
    expect(page2.items[0]!.id).not.toBe(page1.items[0]!.id);
    expect(page1.items.some((i) => i.text.includes('\\n'))).toBe(false);

    expect((await raw('/api/news-feed')).status).toBe(400);
    expect((await raw('/api/news-feed?lang=english')).status).toBe(400);
    expect((await raw('/api/news-feed?lang=en&after=%3Cscript%3E')).status).toBe(400);
    expect((await raw('/api/news-feed?lang=en&after=bm90LWFuLWlk')).status).toBe(400);
  });
});

test.describe('accessibility', () => {
  for (const path of ['/en/stories', `/en/stories/${STORY.slug}`, '/en/media-releases']) {
    test(`${path} has no axe violations`, async ({ page }) => {
      const answered = feedAnswer(page);
      await page.goto(path);
      await newsBellChecked(page, answered);
      await expectNoAxeViolations(page);
    });
  }

  test('the open news feed panel has no axe violations', async ({ page }) => {
    await page.goto('/en/media-releases');
    await page.getByRole('button', { name: /^News/ }).first().click();
    await expect(page.getByRole('dialog', { name: 'News' }).getByRole('listitem')).toHaveCount(10);
    await expectNoAxeViolations(page);
  });
});
