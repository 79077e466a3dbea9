import type { APIContext } from 'astro';
import * as v from 'valibot';
import { getPagesById } from '../../lib/content/index.ts';
import { getLogger } from '../../lib/log/index.ts';
import { endpoint, READ_ONLY } from '../../lib/http/endpoint.ts';
import { apiContext } from '../platform/context.ts';
import { apiContentContext, localeOf, LocaleParam } from '../platform/api.server.ts';
import { buildIcs } from './ics.ts';

const Params = v.object({
  page: v.pipe(v.string(), v.regex(/^[a-z0-9]{1,40}$/i, 'Invalid page id')),
  event: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,80}$/, 'Invalid event id')),
  l: v.optional(LocaleParam, 'en'),
});

const text = (body: string, status: number) => new Response(body, { status, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' } });

/**
 * GET /api/investors/calendar/{pageId}/{eventId}.ics?l={locale}: one event of a financial-calendar
 * module as an iCalendar file (all day, texts in the asked language). Only events of a published
 * page every visitor may see are served: the same answer (404) for a missing and a protected one.
 */
export const calendarEvent = endpoint(READ_ONLY, async ({ params, url, locals }: APIContext) => {
  const parsed = v.safeParse(Params, { page: params.page, event: params.event, l: url.searchParams.get('l') ?? undefined });
  if (!parsed.success) return text(parsed.issues[0].message, 400);
  const { page: pageId, event: eventId, l } = parsed.output;
  const api = apiContext(locals);
  const locale = localeOf(l);
  let pages;
  try {
    pages = await getPagesById(apiContentContext(api, locale), [pageId]);
  } catch (err) {
    getLogger('investors').error(`calendar ${pageId}/${eventId}: ${(err as Error).message}`);
    return text('The financial calendar is not available right now.', 502);
  }
  const page = pages.find((p) => p.id === pageId);
  const event = page && page.isPublished && page.protection === 0
    ? page.modules.flatMap((m) => (m.type === 'financialCalendar' ? m.events : [])).find((e) => e.id === eventId)
    : undefined;
  if (!page || !event) return text('Event not found', 404);
  const body = buildIcs({
    uid: `${event.id}.${page.id}@${url.hostname}`,
    date: event.date,
    summary: event.title,
    description: event.description,
    location: event.location,
    stamp: new Date(page.updatedAt),
    language: page.contentLanguage,
  });
  return new Response(body, {
    headers: {
      'Content-Type': 'text/calendar; charset=utf-8',
      'Content-Disposition': `attachment; filename="${event.id}.ics"`,
      'Cache-Control': 'public, max-age=3600',
    },
  });
});
