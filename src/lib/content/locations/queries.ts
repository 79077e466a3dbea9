/** GraphQL document for the contacts and locations directory. */

export const LOCATIONS = /* GraphQL */ `
  query Locations {
    locations {
      id name type phone email updatedAt
      address { street postalCode city countryCode }
      brands { id name }
      openingHours { from to opens closes }
      contacts { name role phone email }
      coordinates { lat lon }
    }
  }
`;
