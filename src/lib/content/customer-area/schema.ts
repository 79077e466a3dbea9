import * as v from 'valibot';

/** The raw customer-area settings answer (the boundary; map.ts makes the domain type). */
export const RawCustomerAreaSettingsSchema = v.object({
  customerAreaSettings: v.object({
    directServiceUrl: v.nullish(v.string()),
    wireFlowCloudUrl: v.nullish(v.string()),
    masterDataWmUrl: v.nullish(v.string()),
    masterDataMdsUrl: v.nullish(v.string()),
    campusUrl: v.nullish(v.string()),
    requestAccessPath: v.nullish(v.string()),
    comingSoon: v.array(v.string()),
    supportEmail: v.nullish(v.string()),
    supportPhone: v.nullish(v.string()),
  }),
});

export type RawCustomerAreaSettings = v.InferOutput<typeof RawCustomerAreaSettingsSchema>['customerAreaSettings'];

/**
 * The support contact's formats (checked in map.ts, so an editor's typo drops the
 * contact, not the whole record): an e-mail address, and a phone number of digits, spaces and a
 * leading + (it becomes a `tel:` link).
 */
export const SupportEmailSchema = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email());
export const SupportPhoneSchema = v.pipe(v.string(), v.trim(), v.maxLength(40), v.regex(/^\+?[0-9][0-9 ]*[0-9]$/));
