import { isImageOrVideo, MAX_UPLOAD_BYTES } from '../../lib/ticketing/limits.ts';
import type { FieldError } from '../../lib/ticketing/types.ts';

/**
 * The ticket form's and the comment's checks in the browser (spec customer-area §5); the ticketing
 * service checks the same again and answers the same messages per field. Pure: returns locale keys.
 */

export const TICKET_FORM_FIELDS = ['locationId', 'type', 'machineId', 'subject', 'description', 'machineName', 'serialNumber'] as const;
export type TicketFormField = (typeof TICKET_FORM_FIELDS)[number];
export type TicketFormValues = Record<TicketFormField, string>;

/** The spec's messages, verbatim in English (locale keys). */
export const REQUIRED_MESSAGES = {
  locationId: 'tickets.form.locationRequired',
  type: 'tickets.form.typeRequired',
  machineId: 'tickets.form.machineRequired',
  subject: 'tickets.form.subjectRequired',
  description: 'tickets.form.descriptionRequired',
} as const satisfies Partial<Record<TicketFormField, string>>;

export const COMMENT_REQUIRED = 'tickets.detail.commentRequired';
export const FILE_TOO_LARGE = 'tickets.files.tooLarge';
export const FILE_NOT_MEDIA = 'tickets.files.notMedia';
/** The service's limits (emulators/ticketing/schema.graphql). */
export const SUBJECT_MAX = 200;
export const TEXT_MAX = 20_000;

export type RequiredMessageKey = (typeof REQUIRED_MESSAGES)[keyof typeof REQUIRED_MESSAGES];
export type MessageKey = RequiredMessageKey | typeof COMMENT_REQUIRED | typeof FILE_TOO_LARGE | typeof FILE_NOT_MEDIA;

/** The required fields left empty (blank counts as empty), in form order, with their message keys. */
export function validateTicketForm(values: Partial<TicketFormValues>): Partial<Record<TicketFormField, RequiredMessageKey>> {
  const errors: Partial<Record<TicketFormField, RequiredMessageKey>> = {};
  for (const field of Object.keys(REQUIRED_MESSAGES) as (keyof typeof REQUIRED_MESSAGES)[]) {
    if (!values[field]?.trim()) errors[field] = REQUIRED_MESSAGES[field];
  }
  return errors;
}

export function validateComment(body: string): typeof COMMENT_REQUIRED | null {
  return body.trim() ? null : COMMENT_REQUIRED;
}

/** Why a file cannot be attached (images and videos of at most 100 MB), else null. */
export function validateFile(file: { size: number; type: string }): typeof FILE_TOO_LARGE | typeof FILE_NOT_MEDIA | null {
  if (!isImageOrVideo(file.type)) return FILE_NOT_MEDIA;
  if (file.size > MAX_UPLOAD_BYTES) return FILE_TOO_LARGE;
  return null;
}

/**
 * The service's field errors on our form fields (its `field` names are the input's); an error on
 * no known field belongs to the whole form (key '').
 */
export function fieldErrorsByField(errors: FieldError[]): Partial<Record<TicketFormField | '', string>> {
  const out: Partial<Record<TicketFormField | '', string>> = {};
  for (const e of errors) {
    const field = (TICKET_FORM_FIELDS as readonly string[]).includes(e.field ?? '') ? (e.field as TicketFormField) : '';
    out[field] ??= e.message;
  }
  return out;
}

/**
 * The form's values after one field changed: a machine picked without a location brings its
 * location; a location that is not the picked machine's clears the machine.
 * @example withField(EMPTY, 'machineId', 'm1', [{ id: 'm1', locationId: 'l1' }]) // { …, machineId: 'm1', locationId: 'l1' }
 */
export function withField(values: TicketFormValues, field: TicketFormField, value: string, machines: readonly { id: string; locationId: string }[]): TicketFormValues {
  const next = { ...values, [field]: value };
  if (field === 'machineId') {
    const machine = machines.find((x) => x.id === value);
    if (machine && !next.locationId) next.locationId = machine.locationId;
  }
  if (field === 'locationId' && value && next.machineId && machines.find((x) => x.id === next.machineId)?.locationId !== value) next.machineId = '';
  return next;
}

