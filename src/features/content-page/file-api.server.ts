import type { APIRoute } from 'astro';
import * as v from 'valibot';
import { fetchFileBody, getFile as findFile } from '../../lib/content/index.ts';
import { grantsFromCookies } from '../protected-pages/grant.server.ts';
import { apiContext } from '../platform/context.ts';

const Query = v.object({
  slug: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,120}$/, 'Invalid file slug')),
  l: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{2}(-[a-z]{2})?$/i, 'Invalid locale')), 'en'),
  dl: v.optional(v.string()),
});

/** /file/{slug}?l={locale}&dl=true: a download from the content hub; dl=true forces "save as". */
export const downloadFile: APIRoute = async ({ params, url, locals, request }) => {
  const parsed = v.safeParse(Query, { slug: params.slug, l: url.searchParams.get('l') ?? undefined, dl: url.searchParams.get('dl') ?? undefined });
  if (!parsed.success) return new Response(parsed.issues[0].message, { status: 400 });
  const { services } = apiContext(locals);
  // The page grants the browser holds for downloads (the `/file`-scoped copy of each grant): a file
  // only protected pages link is served to a holder of one of their grants, privately.
  const grants = grantsFromCookies(request.headers.get('cookie'), services.pageGrantSecret);
  const file = await findFile({ config: services.content, locales: [parsed.output.l, 'en'], stage: 'PUBLISHED' }, parsed.output.slug, parsed.output.l.toLowerCase(), grants);
  // The same answer for a missing file and one the caller may not have, never cached by a shared cache.
  if (!file) return new Response('File not found', { status: 404, headers: { 'Cache-Control': 'private, no-store' } });
  const upstream = await fetchFileBody(file, services.timeouts);
  if (!upstream.ok || !upstream.body) return new Response('File not available', { status: 502 });
  const disposition = parsed.output.dl === 'true' ? 'attachment' : 'inline';
  return new Response(upstream.body, {
    headers: {
      'Content-Type': upstream.headers.get('content-type') ?? 'application/octet-stream',
      'Content-Disposition': `${disposition}; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': file.access === 'public' ? 'public, max-age=3600' : 'private, no-store',
    },
  });
};
