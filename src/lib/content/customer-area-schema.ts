import * as v from 'valibot';

/** The raw customer-area settings answer (the boundary; customer-area-map.ts makes the domain type). */
export const RawCustomerAreaSettingsSchema = v.object({
  customerAreaSettings: v.object({
    directServiceUrl: v.nullish(v.string()),
    wireFlowCloudUrl: v.nullish(v.string()),
    masterDataWmUrl: v.nullish(v.string()),
    masterDataMdsUrl: v.nullish(v.string()),
    campusUrl: v.nullish(v.string()),
    requestAccessPath: v.nullish(v.string()),
    comingSoon: v.array(v.string()),
  }),
});

export type RawCustomerAreaSettings = v.InferOutput<typeof RawCustomerAreaSettingsSchema>['customerAreaSettings'];
