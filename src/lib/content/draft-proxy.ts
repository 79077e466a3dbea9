/**
 * The content side of the same-origin draft proxy (spec §4 Draft mode, §7): the app's own read
 * operations, sent to the content hub in stage DRAFT, with every protected page taken out of the
 * answer. Only named operations of this folder pass (an allow-list), never arbitrary GraphQL: the
 * proxy is open to every editor's browser, and an arbitrary query could ask for fields or roots the
 * app never reads (files' `usedBy`, mutations, protected pages' content under another shape) that
 * the answer filter below would then have to understand.
 */
import * as v from 'valibot';
import { contentQuery, type ContentConfig } from './content-service.ts';
import * as q from './queries.ts';
import * as e from './editorial/queries.ts';
import { effectiveProtection, type AccessNode } from './access.ts';

/**
 * The operations the proxy forwards, by GraphQL operation name: the app's page, navigation and
 * editorial reads. Left out on purpose: File (which pages link a file), SystemData and redirects
 * (not stage content), customer-area settings, and every mutation.
 */
export const DRAFT_PROXY_OPERATIONS: Readonly<Record<string, string>> = {
  HeaderNavigation: q.HEADER_NAVIGATION,
  FooterNavigation: q.FOOTER_NAVIGATION,
  PageByPath: q.PAGE_BY_PATH,
  PagesById: q.PAGES_BY_ID,
  Pages: q.PAGES,
  Stories: e.STORIES,
  Story: e.STORY,
  StoriesByContact: e.STORIES_BY_CONTACT,
  RelatedStories: e.RELATED_STORIES,
  RelatedStoriesByProducts: e.RELATED_STORIES_BY_PRODUCTS,
  MediaReleases: e.MEDIA_RELEASES,
  MediaRelease: e.MEDIA_RELEASE,
};

/** Whitespace runs count as one space: a client may send the document re-indented. */
const normalize = (doc: string) => doc.replace(/\s+/g, ' ').trim();
const KNOWN = new Map(Object.entries(DRAFT_PROXY_OPERATIONS).map(([name, doc]) => [name, normalize(doc)]));

/** The operation name of a document's first operation (`query Name(…)`), or null. */
export function operationNameOf(document: string): string | null {
  return /\b(?:query|mutation|subscription)\s+([_A-Za-z][_0-9A-Za-z]*)/.exec(document)?.[1] ?? null;
}

/**
 * The allow-listed operation a request names, or why not: the document must be exactly one of
 * {@link DRAFT_PROXY_OPERATIONS} (whitespace aside), and `operationName`, when given, its name.
 */
export function allowedOperation(query: string, operationName?: string | null): { ok: true; name: string } | { ok: false; reason: string } {
  const name = operationNameOf(query);
  if (!name || !KNOWN.has(name)) return { ok: false, reason: `Only the site's own content operations pass the draft proxy: ${[...KNOWN.keys()].join(', ')}.` };
  if (operationName != null && operationName !== name) return { ok: false, reason: `operationName "${operationName.slice(0, 50)}" does not match the document's operation "${name}".` };
  if (KNOWN.get(name) !== normalize(query)) return { ok: false, reason: `The document of ${name} differs from the site's own; send it unchanged.` };
  return { ok: true, name };
}

const AccessNodeSchema = v.object({ id: v.string(), protection: v.number(), isPublished: v.boolean() });

/**
 * Whether a value of the answer is a page record whose content must not leave the server: every
 * object with a `protection` field is checked (pages carry it with their parent chain, the
 * `parents` entries carry it alone); one whose own protection, or that of any parent, is above 0
 * is protected, and so is one whose protection or chain cannot be read (fail closed). The proxy
 * cannot know a grant, so protected means refused.
 */
export function isProtectedRecord(value: Record<string, unknown>): boolean {
  if (!('protection' in value)) return false;
  const own = typeof value.protection === 'number' ? value.protection : NaN;
  const parents = v.safeParse(v.array(AccessNodeSchema), value.parents ?? []);
  if (Number.isNaN(own) || !parents.success) return true;
  const entry = { id: String(value.id ?? ''), protection: own, isPublished: value.isPublished === true, parents: parents.output as AccessNode[] };
  return effectiveProtection(entry) > 0;
}

/**
 * A copy of a GraphQL answer without protected page records: one in a list is left out, one in a
 * field becomes null (as if it did not exist). Returns how many were removed.
 */
export function withoutProtectedPages(data: unknown): { data: unknown; removed: number } {
  let removed = 0;
  const walk = (value: unknown): unknown => {
    if (Array.isArray(value)) {
      const out: unknown[] = [];
      for (const item of value) {
        if (item && typeof item === 'object' && !Array.isArray(item) && isProtectedRecord(item as Record<string, unknown>)) removed++;
        else out.push(walk(item));
      }
      return out;
    }
    if (!value || typeof value !== 'object') return value;
    const obj = value as Record<string, unknown>;
    if (isProtectedRecord(obj)) {
      removed++;
      return null;
    }
    const out: Record<string, unknown> = {};
    // A passed record's parent chain is all unprotected (else it would not have passed).
    for (const [k, child] of Object.entries(obj)) out[k] = k === 'parents' && 'protection' in obj ? child : walk(child);
    return out;
  };
  return { data: walk(data), removed };
}

/**
 * Sends one allow-listed operation to the content hub in stage DRAFT (a `stage` variable the
 * client sent is overwritten) with the ordered locale list, and answers its data without protected
 * pages. Failures are ContentErrors (unavailable: down or too slow; graphQLErrors: refused input).
 */
export async function draftPassthrough(config: ContentConfig, locales: string[], name: string, variables: Record<string, unknown>): Promise<unknown> {
  const document = DRAFT_PROXY_OPERATIONS[name];
  if (!document) throw new Error(`Not a draft proxy operation: ${name}`);
  const takesStage = /\$stage\s*:/.test(document);
  const vars = takesStage ? { ...variables, stage: 'DRAFT' } : variables;
  const data = await contentQuery({ config, locales, stage: 'DRAFT' }, `draftProxy:${name}`, document, vars, v.unknown());
  return withoutProtectedPages(data).data;
}
