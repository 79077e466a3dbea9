/**
 * The first half of the runtime module (./runtime.ts appends Astro's island runtime): registers
 * the full directive where the inlined bootstrap (./bootstrap.ts) hands islands to it, before the
 * `astro-island` element is defined and its islands start.
 */
import interaction from './directive.ts';
import { FULL_DIRECTIVE } from './wake.ts';

(self as unknown as Record<string, unknown>)[FULL_DIRECTIVE] = interaction;
