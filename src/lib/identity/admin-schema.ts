import * as v from 'valibot';

/*
 * valibot schemas for the delegated user administration endpoint `{IDM}/endpoint/kmx-admin`
 * (contract: /work/briefs/user-admin-contract.md); admin-map.ts turns them into our types.
 */

const text = v.optional(v.nullable(v.string()), '');
/*
 * What the permission rule needs to know of a user (issue 28). Missing values read as the most
 * protected case, so an endpoint that stops sending them locks administrators out instead of letting
 * them reach internal accounts: no `internallyManaged` = internally managed; an `admin` role without
 * `adminKind` = an internal admin (admin-map.ts).
 */
const adminKind = v.optional(v.nullable(v.string()), null);
const internallyManaged = v.optional(v.boolean(), true);

export const RawOrganisationSchema = v.object({
  orguid: v.string(),
  name: text,
  subregion: text,
  country: text,
  city: text,
  members: v.optional(v.number(), 0),
});

export const RawOrganisationsSchema = v.object({ result: v.array(RawOrganisationSchema) });

export const RawUserRowSchema = v.object({
  id: v.string(),
  name: text,
  email: text,
  organisations: v.optional(v.array(v.object({ orguid: v.string(), name: text })), []),
  role: v.optional(v.string(), 'user'),
  adminKind,
  internallyManaged,
  status: v.optional(v.nullable(v.string()), null),
  application: v.optional(v.nullable(v.string()), null),
  country: text,
  city: text,
  applications: v.optional(v.array(v.object({ application: v.string(), status: v.string() })), []),
});

export const RawUserListSchema = v.object({
  result: v.array(RawUserRowSchema),
  totalCount: v.number(),
  page: v.number(),
  pageSize: v.number(),
});

export const RawAccessSchema = v.object({
  application: v.string(),
  status: v.string(),
  requestedBy: text,
  requestDate: text,
  inviteExpiresAt: v.optional(v.nullable(v.string()), null),
  updatedAt: text,
  actions: v.optional(v.array(v.string()), []),
});

export const RawUserDetailSchema = v.object({
  id: v.string(),
  givenName: text,
  sn: text,
  name: text,
  email: text,
  telephone: text,
  company: text,
  country: text,
  city: text,
  role: v.optional(v.string(), 'user'),
  adminKind,
  internallyManaged,
  organisations: v.optional(v.array(RawOrganisationSchema), []),
  access: v.optional(v.array(RawAccessSchema), []),
  canDelete: v.optional(v.boolean(), false),
});

export const RawInvitationSchema = v.object({ user: RawUserDetailSchema });
export const RawDeletedSchema = v.object({ id: v.string() });

/** An error answer `{ code, reason, message, detail? }` (detail: `{ field }` on 400, `{ userId, permitted }` on an existing e-mail). */
export const RawAdminErrorSchema = v.object({
  code: v.optional(v.number()),
  reason: v.optional(v.string()),
  message: v.optional(v.string(), ''),
  detail: v.optional(v.record(v.string(), v.unknown())),
});

export type RawOrganisation = v.InferOutput<typeof RawOrganisationSchema>;
export type RawUserRow = v.InferOutput<typeof RawUserRowSchema>;
export type RawUserDetail = v.InferOutput<typeof RawUserDetailSchema>;
