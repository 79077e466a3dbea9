/** GraphQL documents for the catalogue (PIM) service, built from shared fragments. */

const CLASSIFICATION = /* GraphQL */ `
  fragment ClassificationFields on Classification {
    id parent_id name slug description image_url language supported_countries sort_index children type
  }
`;

const IMAGE = /* GraphQL */ `
  fragment ImageFields on Image { name url default }
`;

const SPECIFICATION = /* GraphQL */ `
  fragment SpecificationFields on Specification {
    name value unit measurement_system
    units { dim_metric { value unit } dim_imperial { value unit } }
  }
`;

const REFERENCE = /* GraphQL */ `
  fragment ReferenceFields on ProductReference {
    id type slug name language product_brand_id brand { id name } short_description
    images { ...ImageFields } classification_id supported_countries variant_count
  }
`;

const PRODUCT = /* GraphQL */ `
  ${IMAGE}
  ${SPECIFICATION}
  ${REFERENCE}
  fragment ProductFields on Product {
    id slug name language brand { id name } short_description long_description classification_id supported_countries
    images { ...ImageFields }
    variants { id nameMetric nameImperial specifications { ...SpecificationFields } }
    specifications { ...SpecificationFields }
    documents { name content_language thumbnail_url type url filename extension size_bytes }
    highlights { name short_description long_description image_url video_url video_image_url }
    video { url thumbnail_url alt }
    capabilities
    capability_details { id name slug image_url language }
    related { type slug product { ...ReferenceFields } }
  }
`;

export const ALL_CLASSIFICATIONS = /* GraphQL */ `
  ${CLASSIFICATION}
  query AllClassifications($language: String!) {
    allClassifications(language: $language) { ...ClassificationFields }
  }
`;

export const PRODUCT_BY_SLUG = /* GraphQL */ `
  ${PRODUCT}
  query Product($language: String!, $slug: String!) {
    product(language: $language, slug: $slug) { ...ProductFields }
  }
`;

/** Full products in bulk (the prerender asks for every product of a language in a few calls). */
export const PRODUCTS_FULL_BY_SLUGS = /* GraphQL */ `
  ${PRODUCT}
  query ProductsFull($language: String!, $slugs: [String!]!) {
    productDetailsBySlugs(language: $language, slugs: $slugs) { ...ProductFields }
  }
`;

/** What the comparison basket shows: names, variants and images. */
export const PRODUCTS_BY_SLUGS = /* GraphQL */ `
  ${IMAGE}
  query ProductsBySlugs($language: String!, $slugs: [String!]!) {
    productsBySlugs(language: $language, slugs: $slugs) {
      slug name classification_id supported_countries
      images { ...ImageFields }
      variants { id nameMetric nameImperial }
    }
  }
`;

/** What the comparison view shows: adds brand, short description and every specification. */
export const PRODUCT_DETAILS_BY_SLUGS = /* GraphQL */ `
  ${IMAGE}
  ${SPECIFICATION}
  query ProductDetailsBySlugs($language: String!, $slugs: [String!]!) {
    productDetailsBySlugs(language: $language, slugs: $slugs) {
      slug name brand { id name } short_description classification_id supported_countries
      images { ...ImageFields }
      specifications { ...SpecificationFields }
      variants { id nameMetric nameImperial specifications { ...SpecificationFields } }
    }
  }
`;

export const CLASSIFICATION_PRODUCTS = /* GraphQL */ `
  ${IMAGE}
  ${REFERENCE}
  query ClassificationProducts($language: String!, $slug: String!, $type: String!, $recursive: Boolean!) {
    classificationProducts(language: $language, slug: $slug, type: $type, recursive: $recursive) { ...ReferenceFields }
  }
`;

export const PRODUCTS_BY_CAPABILITY = /* GraphQL */ `
  ${IMAGE}
  ${REFERENCE}
  query ProductsByCapability($language: String!, $capabilityId: ID!) {
    productsByCapability(language: $language, capabilityId: $capabilityId) { ...ReferenceFields }
  }
`;

export const SERVICE_PRODUCT = /* GraphQL */ `
  ${IMAGE}
  ${REFERENCE}
  query ServiceProduct($language: String!, $slug: String!) {
    serviceProduct(language: $language, slug: $slug) {
      id slug name language short_description long_description video_url video_image_url classification_id supported_countries
      images { ...ImageFields }
      service { benefit1 benefit2 benefit3 benefit4 benefit5 benefit6 detail1 detail2 detail3 detail4 detail5 detail6 }
      related { type product { ...ReferenceFields } }
    }
  }
`;
