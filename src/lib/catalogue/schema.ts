import * as v from 'valibot';

/** valibot schemas for the raw catalogue answers (the boundary; map.ts turns them into domain types). */

const str = v.string();
const nstr = v.nullish(v.string());

export const RawClassificationSchema = v.object({
  id: str,
  parent_id: nstr,
  name: str,
  slug: str,
  description: nstr,
  image_url: nstr,
  language: str,
  supported_countries: v.array(str),
  sort_index: v.number(),
  children: v.array(str),
  type: v.picklist(['product', 'service']),
});
export type RawClassification = v.InferOutput<typeof RawClassificationSchema>;

export const RawImageSchema = v.object({ name: str, url: str, default: v.boolean() });
export type RawImage = v.InferOutput<typeof RawImageSchema>;

const UnitValue = v.nullish(v.object({ value: str, unit: str }));

export const RawSpecificationSchema = v.object({
  name: str,
  value: str,
  unit: nstr,
  measurement_system: nstr,
  units: v.nullish(v.object({ dim_metric: UnitValue, dim_imperial: UnitValue })),
});
export type RawSpecification = v.InferOutput<typeof RawSpecificationSchema>;

export const RawBrandSchema = v.object({ id: str, name: str });

export const RawReferenceSchema = v.object({
  id: str,
  type: v.picklist(['product', 'service']),
  slug: str,
  name: str,
  language: str,
  product_brand_id: str,
  brand: RawBrandSchema,
  short_description: nstr,
  images: v.array(RawImageSchema),
  classification_id: str,
  supported_countries: v.array(str),
  variant_count: v.number(),
});
export type RawReference = v.InferOutput<typeof RawReferenceSchema>;

export const RawVariantSchema = v.object({
  id: str,
  nameMetric: str,
  nameImperial: str,
  specifications: v.optional(v.array(RawSpecificationSchema), []),
});

export const RawDocumentSchema = v.object({
  name: str,
  content_language: str,
  thumbnail_url: str,
  type: str,
  url: str,
  filename: str,
  extension: str,
  size_bytes: v.number(),
});

export const RawHighlightSchema = v.object({
  name: nstr,
  short_description: nstr,
  long_description: nstr,
  image_url: nstr,
  video_url: nstr,
  video_image_url: nstr,
});
export type RawHighlight = v.InferOutput<typeof RawHighlightSchema>;

export const RawCapabilitySchema = v.object({ id: str, name: str, slug: str, image_url: nstr, language: str });

export const RawRelationType = v.picklist(['related', 'component', 'service']);

export const RawProductSchema = v.object({
  id: str,
  slug: str,
  name: str,
  language: str,
  brand: RawBrandSchema,
  short_description: nstr,
  long_description: nstr,
  classification_id: str,
  supported_countries: v.array(str),
  images: v.array(RawImageSchema),
  variants: v.array(RawVariantSchema),
  specifications: v.array(RawSpecificationSchema),
  documents: v.array(RawDocumentSchema),
  highlights: v.array(RawHighlightSchema),
  video: v.nullish(v.object({ url: str, thumbnail_url: nstr, alt: nstr })),
  capabilities: v.array(str),
  capability_details: v.array(RawCapabilitySchema),
  related: v.array(v.object({ type: RawRelationType, slug: str, product: v.nullish(RawReferenceSchema) })),
});
export type RawProduct = v.InferOutput<typeof RawProductSchema>;

export const RawBasketProductSchema = v.object({
  slug: str,
  name: str,
  classification_id: str,
  supported_countries: v.array(str),
  images: v.array(RawImageSchema),
  variants: v.array(RawVariantSchema),
});
export type RawBasketProduct = v.InferOutput<typeof RawBasketProductSchema>;

export const RawComparisonProductSchema = v.object({
  slug: str,
  name: str,
  brand: RawBrandSchema,
  short_description: nstr,
  classification_id: str,
  supported_countries: v.array(str),
  images: v.array(RawImageSchema),
  specifications: v.array(RawSpecificationSchema),
  variants: v.array(RawVariantSchema),
});
export type RawComparisonProduct = v.InferOutput<typeof RawComparisonProductSchema>;

const ServiceText = nstr;
export const RawServiceDetailsSchema = v.object({
  benefit1: ServiceText, benefit2: ServiceText, benefit3: ServiceText, benefit4: ServiceText, benefit5: ServiceText, benefit6: ServiceText,
  detail1: ServiceText, detail2: ServiceText, detail3: ServiceText, detail4: ServiceText, detail5: ServiceText, detail6: ServiceText,
});

export const RawServiceProductSchema = v.object({
  id: str,
  slug: str,
  name: str,
  language: str,
  short_description: nstr,
  long_description: nstr,
  video_url: nstr,
  video_image_url: nstr,
  classification_id: str,
  supported_countries: v.array(str),
  images: v.array(RawImageSchema),
  service: RawServiceDetailsSchema,
  related: v.array(v.object({ type: RawRelationType, product: RawReferenceSchema })),
});
export type RawServiceProduct = v.InferOutput<typeof RawServiceProductSchema>;

export const AllClassificationsSchema = v.object({ allClassifications: v.array(RawClassificationSchema) });
export const ProductSchema = v.object({ product: v.nullable(RawProductSchema) });
export const ProductsFullSchema = v.object({ productDetailsBySlugs: v.array(RawProductSchema) });
export const ProductsBySlugsSchema = v.object({ productsBySlugs: v.array(RawBasketProductSchema) });
export const ProductDetailsBySlugsSchema = v.object({ productDetailsBySlugs: v.array(RawComparisonProductSchema) });
export const ClassificationProductsSchema = v.object({ classificationProducts: v.array(RawReferenceSchema) });
export const ProductsByCapabilitySchema = v.object({ productsByCapability: v.array(RawReferenceSchema) });
export const ServiceProductSchema = v.object({ serviceProduct: v.nullable(RawServiceProductSchema) });
