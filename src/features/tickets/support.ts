/**
 * The Komax service contact shown with every ticket, comment, close and upload failure (spec
 * customer-area §8 "with a support contact"). Named once here; the content hub has no such record yet.
 */
export const SUPPORT_CONTACT = { email: 'service@komax.com', phone: '+41 41 455 05 05' } as const;
