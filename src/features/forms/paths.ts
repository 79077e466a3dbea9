import type { MessageKey } from '../../i18n/index.ts';
import type { FormKind } from './definitions.ts';

/** The form page: where a form posts without JavaScript, and a page with the form alone. */
export const formPagePath = (localeUrlCode: string, kind: FormKind): string => `/${localeUrlCode}/forms/${kind}`;

/** The JSON API the enhanced form sends to. */
export const formApiPath = (kind: FormKind): string => `/api/forms/${kind}`;

/** Texts the browser script shows besides the field messages. */
export const BROWSER_MESSAGE_KEYS = ['forms.failure', 'forms.sending', 'forms.downloadLink', 'forms.unknownOutcome'] as const satisfies readonly MessageKey[];
