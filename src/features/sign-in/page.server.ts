import { loadChrome } from '../platform/chrome.server.ts';
import { pageContext } from '../platform/context.ts';
import type { ChromeModel } from '../platform/page-model.ts';

/** The chrome of a sign-in page (callback, logout, error): the site's header and footer. */
export async function signInPageChrome(locals: App.Locals): Promise<ChromeModel> {
  const ctx = pageContext(locals);
  return loadChrome(ctx, ctx.request.site);
}
