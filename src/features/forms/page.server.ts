import { clientKey } from '../../lib/http/rate-limit.ts';
import { getLogger } from '../../lib/log/index.ts';
import { loadChrome, loadNotFound } from '../platform/chrome.server.ts';
import { pageContext } from '../platform/context.ts';
import { isFormKind } from './definitions.ts';
import { formPrefill } from './prefill.ts';
import { processSubmission, readFormBody } from './submit.server.ts';
import type { FormPageModel } from './model.ts';

/**
 * The form page /{locale}/forms/{kind} (always on demand, never stored): GET shows the form alone
 * (the whitepaper form names its file with ?file=); POST is where a form posts without
 * JavaScript: the answer is the result (success text, whitepaper download link) or the form again
 * with the errors, the rate-limit or the failure text and every value kept.
 */
const SLUG = /^[a-z0-9][a-z0-9._-]{0,149}$/i;
/** A same-site path to go back to (never another origin). */
const safeReturn = (value: unknown): string | null => (typeof value === 'string' && /^\/(?!\/)[^\s\\]*$/.test(value) && value.length <= 500 ? value : null);

export async function loadFormPage(locals: App.Locals, context: { params: Record<string, string | undefined>; request: Request; url: URL; clientAddress?: string }): Promise<FormPageModel> {
  const ctx = pageContext(locals);
  const kind = context.params.kind ?? '';
  if (!isFormKind(kind)) return { kind: 'not-found', model: await loadNotFound(ctx, ctx.request.site) };
  // A post must still get its answer (the failure text, the values kept) when the content hub is down.
  const chrome = await loadChrome(ctx, ctx.request.site).catch((err: unknown) => {
    getLogger('forms').warn(`form page without navigation: ${(err as Error).message}`);
    return { header: null, footer: null };
  });
  const headers = { 'Cache-Control': 'no-store' };
  const fileParam = context.url.searchParams.get('file');
  const file = fileParam && SLUG.test(fileParam) ? fileParam : null;
  if (context.request.method !== 'POST') {
    // A link from a product page names the product and topic (prefill.ts): the form starts with them.
    return { kind: 'form', form: kind, chrome, status: 200, headers, state: { values: formPrefill(kind, context.url.searchParams) }, file, returnTo: safeReturn(context.url.searchParams.get('from')) };
  }
  const { t } = ctx;
  const body = await readFormBody(context.request);
  if (body.kind !== 'ok') {
    const status = body.kind === 'unsupported' ? 415 : body.kind === 'too-large' ? 413 : 400;
    return { kind: 'form', form: kind, chrome, status, headers, state: { status: { kind: 'failed', message: t('forms.failure') } }, file, returnTo: null };
  }
  const input = body.value;
  const values = Object.fromEntries(Object.entries(input).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  const returnTo = safeReturn(input.returnTo);
  const outcome = await processSubmission({
    kind, input, client: clientKey(context), locale: ctx.request.locale.code,
    countries: ctx.system.countries.filter((c) => !c.hidden).map((c) => c.countryCode),
    content: ctx.content,
    // A form without JavaScript carries no key (its page may be prerendered): the same content from the same client is stored once.
    key: { kind: 'derive' },
  });
  const base = { kind: 'form' as const, form: kind, chrome, file: values.file ?? file, returnTo };
  switch (outcome.kind) {
    case 'sent':
      return { ...base, status: 200, headers, state: { status: { kind: 'sent', message: t('forms.success'), download: outcome.download } } };
    case 'invalid':
      return { ...base, status: 400, headers, state: { values, errors: Object.fromEntries(Object.entries(outcome.errors).map(([f, key]) => [f, t(key)])) } };
    case 'rate-limited':
      return {
        ...base, status: 429, headers: { ...headers, 'Retry-After': String(outcome.retryAfterSeconds) },
        state: { values, status: { kind: 'failed', message: t('forms.tooMany', { seconds: outcome.retryAfterSeconds }) } },
      };
    case 'key-in-progress':
    case 'key-mismatch':
    case 'key-refused':
      // A derived key is only ever busy (the same post a moment ago, still on its way): not known yet.
      return { ...base, status: 409, headers: { ...headers, 'Retry-After': '1' }, state: { values, status: { kind: 'failed', message: t('forms.unknownOutcome') } } };
    case 'failed':
      return { ...base, status: outcome.status, headers, state: { values, status: { kind: 'failed', message: t(outcome.unknown ? 'forms.unknownOutcome' : 'forms.failure') } } };
  }
}
