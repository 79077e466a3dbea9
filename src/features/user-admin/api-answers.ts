import * as v from 'valibot';
import { ACCESS_ACTIONS, ACCESS_STATUSES, APPLICATIONS } from '../../lib/identity/admin-map.ts';

/* The API answers the islands read (valibot, in the browser). */

const s = v.string();
const application = v.picklist(APPLICATIONS);
const status = v.picklist(ACCESS_STATUSES);

export const OrganisationSchema = v.object({ orguid: s, name: s, subregion: s, country: s, city: s, members: v.number() });
export const OrganisationsSchema = v.object({ organisations: v.array(OrganisationSchema) });

export const UserRowSchema = v.object({
  id: s, name: s, email: s, organisations: v.array(v.object({ orguid: s, name: s })), role: v.picklist(['admin', 'user']),
  status: v.nullable(status), application: v.nullable(application), country: s, city: s,
  applications: v.array(v.object({ application, status })),
});
export const UserListSchema = v.object({ users: v.array(UserRowSchema), totalCount: v.number(), page: v.number(), pageSize: v.number() });

export const UserDetailSchema = v.object({
  id: s, firstName: s, lastName: s, name: s, email: s, telephone: s, company: s, country: s, city: s, role: v.picklist(['admin', 'user']),
  /** `removable`: whether the administrator may remove this membership. */
  organisations: v.array(v.object({ ...OrganisationSchema.entries, removable: v.boolean() })),
  access: v.array(v.object({ application, status, requestedBy: s, requestDate: s, inviteExpiresAt: v.nullable(s), updatedAt: s, actions: v.array(v.picklist(ACCESS_ACTIONS)) })),
  canDelete: v.boolean(),
  canChangeAccess: v.boolean(),
  /** Why access changes and deletion are not offered (src/features/user-admin/policy.ts). */
  restriction: v.nullable(v.picklist(['own-account', 'other-organisations'])),
});
export const DeletedSchema = v.object({ id: s });

export type UserRowView = v.InferOutput<typeof UserRowSchema>;
export type UserDetailView = v.InferOutput<typeof UserDetailSchema>;
export type OrganisationView = v.InferOutput<typeof OrganisationSchema>;
