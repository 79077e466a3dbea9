/** The single localStorage key of the basket (spec §9); its own module so the badge script stays tiny. */
export const BASKET_STORAGE_KEY = 'komax.comparison-basket';
