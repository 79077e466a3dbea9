import * as v from 'valibot';

/**
 * valibot schemas for identity management's answers (ForgeRock IDM shape, see
 * /work/briefs/identity-contract.md); management-map.ts turns them into our types.
 */

const text = v.optional(v.nullable(v.string()), '');

/** `managed/alpha_user/{id}`: the fields we read; absent text fields count as empty. */
export const RawUserSchema = v.object({
  _id: v.string(),
  userName: text,
  givenName: text,
  sn: text,
  mail: text,
  telephoneNumber: text,
  postalAddress: text,
  postalCode: text,
  city: text,
  country: text,
  custom_company: text,
  custom_language: text,
  custom_internallyManaged: v.optional(v.boolean(), false),
  custom_mfaDevices: v.optional(v.number(), 0),
});
export type RawUser = v.InferOutput<typeof RawUserSchema>;

/** The answer of `?_action=resetMfa`. */
export const RawMfaResetSchema = v.object({ _id: v.string(), custom_mfaDevices: v.number() });

/** An error answer: `{ code, reason, message, detail? }`; `detail.failedPolicyRequirements` on policy failures. */
export const RawErrorSchema = v.object({
  code: v.optional(v.number()),
  reason: v.optional(v.string()),
  message: v.optional(v.string(), ''),
  detail: v.optional(v.object({
    failedPolicyRequirements: v.optional(v.array(v.object({
      property: v.string(),
      policyRequirements: v.array(v.object({
        policyRequirement: v.string(),
        params: v.optional(v.nullable(v.record(v.string(), v.unknown()))),
      })),
    })), []),
  })),
});
export type RawError = v.InferOutput<typeof RawErrorSchema>;
