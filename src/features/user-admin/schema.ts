import * as v from 'valibot';
import { ACCESS_ACTIONS, ACCESS_STATUSES, APPLICATIONS, EDIT_STATUSES, SORT_KEYS } from '../../lib/identity/admin-map.ts';

/*
 * The user administration API's inputs (valibot): path parameters, the list query and the bodies.
 * The server answers 400 with the first problem; identity management stays authoritative for
 * everything else (who may do what, which action fits which status).
 */

/** A user id or orguid in a path: letters, digits and `._@-`, at most 100. */
export const IdParam = v.pipe(v.string('id is required'), v.regex(/^[A-Za-z0-9._@-]{1,100}$/, 'id must be 1–100 letters, digits or . _ @ -'));
export const OrguidParam = v.pipe(v.string('orguid is required'), v.regex(/^[A-Za-z0-9._@-]{1,100}$/, 'orguid must be 1–100 letters, digits or . _ @ -'));
export const ApplicationParam = v.picklist(APPLICATIONS, `application must be one of ${APPLICATIONS.join(', ')}`);

const SORTS = [...SORT_KEYS, ...SORT_KEYS.map((k) => `-${k}` as const)];
const whole = (name: string, min: number, max: number) => v.optional(v.pipe(
  v.string(),
  v.regex(/^\d{1,6}$/, `${name} must be a whole number`),
  v.transform(Number),
  v.minValue(min, `${name} must be at least ${min}`),
  v.maxValue(max, `${name} must be at most ${max}`),
));

/** GET /api/user-admin/users query (empty values count as absent). */
export const ListQuery = v.object({
  search: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(100, 'search must be at most 100 characters'))),
  orguid: v.optional(OrguidParam),
  application: v.optional(ApplicationParam),
  status: v.optional(v.picklist(ACCESS_STATUSES, `status must be one of ${ACCESS_STATUSES.join(', ')}`)),
  country: v.optional(v.pipe(v.string(), v.regex(/^[A-Za-z]{2}$/, 'country must be an ISO 3166 alpha-2 code'), v.toUpperCase())),
  sort: v.optional(v.picklist(SORTS, `sort must be one of ${SORT_KEYS.join(', ')} (prefixed - for descending)`)),
  page: whole('page', 1, 100000),
  pageSize: whole('pageSize', 1, 100),
});
export type ListQueryInput = v.InferOutput<typeof ListQuery>;

/** POST /api/user-admin/invitations. The e-mail's format is checked by identity management too (400 detail.field email). */
export const InvitationBody = v.strictObject({
  email: v.pipe(v.string('email is required'), v.trim(), v.minLength(1, 'email is required'), v.maxLength(254, 'email must be at most 254 characters')),
  orguid: OrguidParam,
  applications: v.pipe(
    v.array(ApplicationParam, 'applications must be an array of application ids'),
    v.minLength(1, 'applications must name at least one application'),
    v.maxLength(APPLICATIONS.length, `applications must name at most ${APPLICATIONS.length} applications`),
  ),
});

/** POST /api/user-admin/users/{id}/access/{application}: the action, and for `edit` the new status. */
export const ActionBody = v.pipe(
  v.strictObject({
    action: v.picklist(ACCESS_ACTIONS, `action must be one of ${ACCESS_ACTIONS.join(', ')}`),
    status: v.optional(v.picklist(EDIT_STATUSES, 'status must be "active" or "inactive"')),
  }),
  v.check((b) => b.action !== 'edit' || b.status !== undefined, 'edit needs a status ("active" or "inactive")'),
);

/** A syntactically plausible e-mail address (the invite form's own check; identity management decides at last). */
export function isEmail(value: string): boolean {
  return /^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>".]{2,}$/.test(value.trim()) && value.trim().length <= 254;
}
