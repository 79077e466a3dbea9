import { join } from 'node:path';
import { payloadOf, type PageModelBase } from '../../features/platform/page-model.ts';
import type { SystemData } from '../../site/types.ts';
import type { RouteSizes } from '../delivery/static-site.ts';
import { cspForPage, withCspMeta } from '../http/headers.ts';
import { makeRouteFolder, writeReleaseFile } from './write.ts';
import { routeDir } from './output.ts';

/** One route to render: where its files go and what it is rendered from. */
export interface RenderJob {
  host: string;
  hostDir: string;
  origin: string;
  path: string;
  model: PageModelBase;
}

export interface RenderOutcome {
  host: string;
  path: string;
  status: number;
  csp: string | null;
  /** Bytes of the `index.html` written and its siblings (a 200 only). */
  sizes?: RouteSizes;
}

export interface RenderApp {
  render(req: Request, opts: { locals: object }): Promise<Response>;
}

/** Renders one route through the built App and writes its HTML (with the CSP as meta) and page data. */
export async function renderOne(app: RenderApp, job: RenderJob, shared: { system: SystemData; releaseId: string }): Promise<RenderOutcome> {
  const locals = { prerender: { system: shared.system, model: job.model, releaseId: shared.releaseId } };
  const res = await app.render(new Request(`${job.origin}${job.path}`), { locals });
  const body = Buffer.from(await res.arrayBuffer());
  const astroCsp = res.headers.get('content-security-policy');
  const csp = astroCsp && cspForPage(body, astroCsp);
  const html = withCspMeta(body, csp);
  if (res.status === 200) {
    const dir = routeDir(job.hostDir, job.path);
    // A route the release did not have yet (its folder made here) has nothing to unlink.
    const fresh = await makeRouteFolder(dir);
    const sizes = await writeReleaseFile(join(dir, 'index.html'), html, { fresh });
    await writeReleaseFile(join(dir, '_payload.json'), JSON.stringify(payloadOf(job.model)), { fresh });
    return { host: job.host, path: job.path, status: res.status, csp, sizes };
  }
  return { host: job.host, path: job.path, status: res.status, csp };
}
