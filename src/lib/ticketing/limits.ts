/** Spec customer-area §9: an uploaded file may have at most 100 MB (104,857,600 bytes). */
export const MAX_UPLOAD_BYTES = 104_857_600;

/**
 * Room for the GraphQL multipart envelope around one file (boundaries, the `operations` and `map`
 * fields, part headers): the proxy lets a request of one file of exactly 100 MB through and leaves
 * the per-file limit to the ticketing server (which checks each file while it arrives).
 */
export const MULTIPART_ENVELOPE_BYTES = 64 * 1024;

/** The largest request body the tickets proxy forwards: one 100 MB file and its envelope. */
export const MAX_PROXY_BODY_BYTES = MAX_UPLOAD_BYTES + MULTIPART_ENVELOPE_BYTES;

/** A JSON GraphQL request (no files) is small: anything bigger is refused before it is read. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/**
 * The largest answer of the ticketing service the proxy passes on (issue 28): the app's largest
 * (100 machines with their open tickets, a ticket with a long conversation) are a few hundred KB.
 * The answer is read as it arrives and given up at this size; nothing beyond it is held.
 */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024;

/** The file types a ticket takes (spec §5: images or videos). */
export function isImageOrVideo(type: string): boolean {
  return /^(image|video)\//i.test(type) && !/^image\/svg/i.test(type);
}
