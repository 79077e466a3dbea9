/** GraphQL document for the customer area's settings record. */

export const CUSTOMER_AREA_SETTINGS = /* GraphQL */ `
  query CustomerAreaSettings {
    customerAreaSettings {
      directServiceUrl wireFlowCloudUrl masterDataWmUrl masterDataMdsUrl campusUrl requestAccessPath comingSoon supportEmail supportPhone
    }
  }
`;
