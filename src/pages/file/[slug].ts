import type { APIRoute } from 'astro';
import * as v from 'valibot';
import { fetchFileBody, getFile } from '../../lib/content/index.ts';
import { serverEnv } from '../../server/env.ts';

const Query = v.object({
  slug: v.pipe(v.string(), v.regex(/^[a-z0-9][a-z0-9-]{0,120}$/, 'Invalid file slug')),
  l: v.optional(v.pipe(v.string(), v.regex(/^[a-z]{2}(-[a-z]{2})?$/i, 'Invalid locale')), 'en'),
  dl: v.optional(v.string()),
});

/** /file/{slug}?l={locale}&dl=true: a download from the content hub; dl=true forces "save as". */
export const GET: APIRoute = async ({ params, url }) => {
  const parsed = v.safeParse(Query, { slug: params.slug, l: url.searchParams.get('l') ?? undefined, dl: url.searchParams.get('dl') ?? undefined });
  if (!parsed.success) return new Response(parsed.issues[0].message, { status: 400 });
  const env = serverEnv();
  const file = await getFile({ config: { endpoint: env.CONTENT_ENDPOINT }, locales: [parsed.output.l, 'en'], stage: 'PUBLISHED' }, parsed.output.slug, parsed.output.l.toLowerCase());
  if (!file) return new Response('File not found', { status: 404 });
  const upstream = await fetchFileBody(file);
  if (!upstream.ok || !upstream.body) return new Response('File not available', { status: 502 });
  const disposition = parsed.output.dl === 'true' ? 'attachment' : 'inline';
  return new Response(upstream.body, {
    headers: {
      'Content-Type': upstream.headers.get('content-type') ?? 'application/octet-stream',
      'Content-Disposition': `${disposition}; filename="${file.fileName.replace(/[^\w.-]/g, '_')}"`,
      'Cache-Control': 'public, max-age=3600',
    },
  });
};
