import type { ChromeModel, NotFoundModel } from '../platform/page-model.ts';
import type { FormKind } from './definitions.ts';

/** What a rendered form shows besides its fields: the values and errors of a post, or its result. */
export interface FormState {
  values?: Record<string, string>;
  /** Translated message per field. */
  errors?: Record<string, string>;
  /** A result to show instead of (sent) or above (failed) the form. */
  status?: { kind: 'sent' | 'failed'; message: string; download?: string | null } | null;
}

/** The form page /{locale}/forms/{kind} (see page.server.ts). */
export type FormPageModel =
  | { kind: 'form'; form: FormKind; chrome: ChromeModel; status: number; headers: Record<string, string>; state: FormState; file: string | null; returnTo: string | null }
  | { kind: 'not-found'; model: NotFoundModel };
