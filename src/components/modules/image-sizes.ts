/**
 * `sizes` attributes of content-module images: how wide each module shows its image, so the
 * browser picks the smallest srcset candidate that is sharp enough. The container is at most
 * 1180px wide with 1.5rem padding on each side (1132px of content); two-column modules split it
 * with a 3rem gap and stack below 860px; teaser cards are at least 260px wide.
 */
export const TWO_COLUMN_SIZES = '(max-width: 860px) calc(100vw - 3rem), (max-width: 1180px) calc(50vw - 3rem), 542px';
export const FULL_WIDTH_SIZES = '(max-width: 1180px) calc(100vw - 3rem), 1132px';
export const TEASER_SIZES = '(max-width: 600px) calc(100vw - 3rem), (max-width: 900px) 400px, 270px';
