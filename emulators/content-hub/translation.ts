import type { HubExtension, HubHelpers } from './server.ts';
import type { RawPage } from './store.ts';

/**
 * Translation jobs of the content hub (spec §3 Page translation fields and Translation target,
 * §4 translation state): one job per page and target language. The target languages of a page are
 * its site's languages other than its `translationSourceLanguage` (default en).
 *
 * Lifecycle of a target: MarkedForTranslation → InProgress (the translation vendor exported the
 * text: `exportedAt`) → Translated (the translation came back: `importedAt`). `startTranslation`
 * marks every target and starts the hub's clock for the page: every `stepMs` each target moves one
 * state on (evaluated when the job is read, no timers). `resetTranslation` puts every target back
 * to MarkedForTranslation with its dates cleared and stops the clock. Tests drive the states
 * explicitly with `advanceTranslation` after `setTranslationClock(stepMs: 0)` (no automatic steps).
 *
 * Before anything happened to a page, a target is Translated when the page already has content in
 * that language (dated at the page's last change), otherwise MarkedForTranslation.
 *
 * The jobs live in memory, per content hub (the emulator has no data folder of its own; its demo
 * data is read-only JSON): restarting the emulator forgets them, as a fresh demo should.
 */

export const TRANSLATION_STATES = ['MarkedForTranslation', 'InProgress', 'Translated'] as const;
export type TranslationState = (typeof TRANSLATION_STATES)[number];

/** How long a target stays in one state once a job runs, unless CONTENT_HUB_TRANSLATION_STEP_MS says otherwise (0: only explicit steps). */
export const DEFAULT_TRANSLATION_STEP_MS = 2500;

export const translationTypeDefs = /* GraphQL */ `
"Where a page's translation into one target language stands."
enum TranslationState {
  MarkedForTranslation
  InProgress
  Translated
}

"One target language of a page's translation job (spec: Translation target)."
type TranslationTarget {
  "Id of the job for this page and language."
  id: ID!
  language: String!
  translationState: TranslationState!
  "When the text went to the translators (ISO 8601), null before."
  exportedAt: String
  "When the translation came back (ISO 8601), null before."
  importedAt: String
}

"The translation job of a page: its source language and one entry per target language."
type PageTranslation {
  pageId: ID!
  sourceLanguage: String!
  targetLanguages: [TranslationTarget!]!
}

extend type Page {
  "The language the page is written in and translated from (default en)."
  translationSourceLanguage: String!
  "The site's other languages, into which the page is translated."
  translationTargetLanguages: [String!]!
}

extend type Query {
  "The translation job of a page (null for an unknown page)."
  pageTranslation(pageId: ID!): PageTranslation
  "The translation jobs of several pages (unknown ids are left out)."
  pageTranslations(pageIds: [ID!]!): [PageTranslation!]!
}

extend type Mutation {
  "Marks every target language of the page for translation and starts the job (null for an unknown page)."
  startTranslation(pageId: ID!): PageTranslation
  "Puts every target language back to MarkedForTranslation, dates cleared, job stopped (null for an unknown page)."
  resetTranslation(pageId: ID!): PageTranslation
  "Moves every unfinished target one state on, now: of one page, or of every started job (tests, demos)."
  advanceTranslation(pageId: ID): [PageTranslation!]!
  "Sets how many milliseconds each automatic step takes (0: only advanceTranslation moves jobs); answers the value."
  setTranslationClock(stepMs: Int!): Int!
}
`;

interface Target {
  language: string;
  state: TranslationState;
  exportedAt: string | null;
  importedAt: string | null;
}

interface Job {
  targets: Target[];
  /** Whether the hub's clock moves the job (from start until every target is translated, or a reset). */
  running: boolean;
  /** The time of the last step taken (or of the start). */
  lastStep: number;
}

export interface PageTranslationAnswer {
  pageId: string;
  sourceLanguage: string;
  targetLanguages: { id: string; language: string; translationState: TranslationState; exportedAt: string | null; importedAt: string | null }[];
}

/** The next state of a target and the date the step sets. */
export function advanceTarget(target: Target, at: string): Target {
  if (target.state === 'MarkedForTranslation') return { ...target, state: 'InProgress', exportedAt: at };
  if (target.state === 'InProgress') return { ...target, state: 'Translated', importedAt: at };
  return target;
}

function stepMsFromEnv(): number {
  const raw = process.env.CONTENT_HUB_TRANSLATION_STEP_MS;
  const n = raw === undefined || raw === '' ? DEFAULT_TRANSLATION_STEP_MS : Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : DEFAULT_TRANSLATION_STEP_MS;
}

/** Builds the translation extension; `now` and `stepMs` for tests. */
export function createTranslationExtension(opts: { now?: () => number; stepMs?: number } = {}): HubExtension {
  const now = opts.now ?? Date.now;
  return {
    typeDefs: translationTypeDefs,
    resolvers(h: HubHelpers) {
      // Per content hub: two hubs in one process (tests) keep their own jobs and clock.
      const jobs = new Map<string, Job>();
      let stepMs = opts.stepMs ?? stepMsFromEnv();

      const siteLanguages = (page: RawPage): string[] => {
        const system = h.store.data.system;
        const site = system.sites.find((s) => s.id === page.site) ?? system.sites.find((s) => s.isMain === true);
        const known = system.languages.map((l) => String(l.languageCode));
        const set = new Set(system.languages.filter((l) => l.standard === true).map((l) => String(l.languageCode)));
        for (const l of (site?.addLanguages as string[] | undefined) ?? []) set.add(l);
        for (const l of (site?.dropLanguages as string[] | undefined) ?? []) set.delete(l);
        return [...set].filter((l) => known.includes(l)).sort();
      };
      const sourceOf = (page: RawPage): string => (page as RawPage & { translationSourceLanguage?: string }).translationSourceLanguage ?? 'en';
      const targetsOf = (page: RawPage): string[] => siteLanguages(page).filter((l) => l !== sourceOf(page));

      /** The job of a page as it stands now: seeded on first use, the clock's steps applied. */
      const jobOf = (page: RawPage): Job => {
        let job = jobs.get(page.id);
        if (!job) {
          const since = page.updatedAt ?? '2026-01-01T00:00:00.000Z';
          job = {
            running: false,
            lastStep: now(),
            targets: targetsOf(page).map((language) => (page.content[language]
              ? { language, state: 'Translated', exportedAt: since, importedAt: since }
              : { language, state: 'MarkedForTranslation', exportedAt: null, importedAt: null })),
          };
          jobs.set(page.id, job);
        }
        if (job.running && stepMs > 0) {
          const t = now();
          while (job.running && t - job.lastStep >= stepMs) {
            job.lastStep += stepMs;
            step(job, job.lastStep);
          }
        }
        return job;
      };

      const step = (job: Job, at: number) => {
        const iso = new Date(at).toISOString();
        job.targets = job.targets.map((target) => advanceTarget(target, iso));
        if (job.targets.every((target) => target.state === 'Translated')) job.running = false;
      };

      const answer = (page: RawPage, job: Job): PageTranslationAnswer => ({
        pageId: page.id,
        sourceLanguage: sourceOf(page),
        targetLanguages: job.targets.map((target) => ({
          id: `${page.id}-${target.language}`, language: target.language, translationState: target.state, exportedAt: target.exportedAt, importedAt: target.importedAt,
        })),
      });

      const translationOf = (pageId: string) => {
        const page = h.store.pageById(pageId);
        return page ? answer(page, jobOf(page)) : null;
      };

      return {
        Page: {
          translationSourceLanguage: (p: { id: string }) => {
            const page = h.store.pageById(p.id);
            return page ? sourceOf(page) : 'en';
          },
          translationTargetLanguages: (p: { id: string }) => {
            const page = h.store.pageById(p.id);
            return page ? targetsOf(page) : [];
          },
        },
        Query: {
          pageTranslation: (_: unknown, a: { pageId: string }) => translationOf(a.pageId),
          pageTranslations: (_: unknown, a: { pageIds: string[] }) => a.pageIds.map(translationOf).filter(Boolean),
        },
        Mutation: {
          startTranslation: (_: unknown, a: { pageId: string }) => {
            const page = h.store.pageById(a.pageId);
            if (!page) return null;
            const job = jobOf(page);
            job.targets = job.targets.map((target) => ({ ...target, state: 'MarkedForTranslation', exportedAt: null, importedAt: null }));
            job.running = job.targets.length > 0;
            job.lastStep = now();
            return answer(page, job);
          },
          resetTranslation: (_: unknown, a: { pageId: string }) => {
            const page = h.store.pageById(a.pageId);
            if (!page) return null;
            const job = jobOf(page);
            job.targets = job.targets.map((target) => ({ ...target, state: 'MarkedForTranslation', exportedAt: null, importedAt: null }));
            job.running = false;
            return answer(page, job);
          },
          advanceTranslation: (_: unknown, a: { pageId?: string | null }) => {
            const ids = a.pageId ? [a.pageId] : [...jobs.keys()].filter((id) => jobs.get(id)!.running);
            const out: PageTranslationAnswer[] = [];
            for (const id of ids) {
              const page = h.store.pageById(id);
              if (!page) continue;
              const job = jobOf(page);
              step(job, now());
              job.lastStep = now();
              out.push(answer(page, job));
            }
            return out;
          },
          setTranslationClock: (_: unknown, a: { stepMs: number }) => {
            stepMs = Math.max(0, a.stepMs);
            return stepMs;
          },
        },
      };
    },
  };
}

export const translation = createTranslationExtension();
