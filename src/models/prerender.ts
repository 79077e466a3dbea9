import type { SystemData } from '../site/types.ts';
import type { PageModelBase } from './page-model.ts';

/** What the prerender script hands to a render through `locals`. */
export interface PrerenderLocals {
  system: SystemData;
  /** The model of the route being rendered (it becomes `_payload.json`). */
  model: PageModelBase;
  /** Release id of the build being written (embedded for release detection). */
  releaseId: string;
}
