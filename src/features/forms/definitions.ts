import type { MessageKey } from '../../i18n/index.ts';
import { countryHasStates } from '../../site/address.ts';

/**
 * The request forms (customer-area spec §2, §3, §5): their fields, in order, grouped into
 * sections, with the i18n keys of labels and "required" messages. One description per form drives
 * both the server-rendered HTML (FormView.astro) and the valibot schema (schema.ts), so the browser
 * and the server check exactly the fields the visitor sees. Pure and browser-safe.
 */

export const FORM_KINDS = ['openSource', 'serviceRequest', 'whitepaper', 'contact'] as const;
export type FormKind = (typeof FORM_KINDS)[number];
export const isFormKind = (value: string): value is FormKind => (FORM_KINDS as readonly string[]).includes(value);

export type FieldType = 'text' | 'email' | 'tel' | 'textarea' | 'select' | 'radio' | 'country' | 'checkbox' | 'hidden';

/** A field that is required only while another field has a value (a checkbox: 'true'). */
export interface Condition {
  field: string;
  equals: string;
}

export interface FieldDef {
  name: string;
  type: FieldType;
  label: MessageKey;
  /** The message when it is empty (unchecked); absent: optional. */
  required?: MessageKey;
  /** Required only under this condition (with `required` as its message). */
  requiredWhen?: Condition;
  /**
   * A state field: required (with `required` as its message) only when the country in this
   * field has states in its addresses (site/address.ts), optional elsewhere.
   */
  stateOf?: string;
  options?: readonly { value: string; label: MessageKey }[];
  /** The value a radio group starts with. */
  initial?: string;
  autocomplete?: string;
  /** Longest accepted text, in characters. */
  max?: number;
  /** Shown at half width beside its neighbour on wide screens. */
  half?: boolean;
}

export interface SectionDef {
  /** The fieldset's legend; absent: the fields stand directly in the form. */
  legend?: MessageKey;
  /** A checkbox field whose checking reveals this section (its fields are then required). */
  revealedBy?: string;
  fields: readonly FieldDef[];
}

export interface FormDef {
  kind: FormKind;
  title: MessageKey;
  submit: MessageKey;
  sections: readonly SectionDef[];
}

/** The visually hidden field bots fill in and people do not (a filled one is answered like a success, not stored). */
export const HONEYPOT_FIELD = 'website';

/** The default message for a value of the wrong form (spec §5). */
export const INVALID_KEY = 'forms.invalid' satisfies MessageKey;
/** The message of an unchecked required checkbox (spec §5). */
export const CHECKBOX_KEY = 'forms.checkboxRequired' satisfies MessageKey;

const email = (required: MessageKey = 'forms.emailRequired'): FieldDef => ({ name: 'email', type: 'email', label: 'forms.email', required, autocomplete: 'email', max: 254 });
const firstName: FieldDef = { name: 'firstName', type: 'text', label: 'forms.firstName', required: 'forms.firstNameRequired', autocomplete: 'given-name', max: 100, half: true };
const lastName: FieldDef = { name: 'lastName', type: 'text', label: 'forms.lastName', required: 'forms.lastNameRequired', autocomplete: 'family-name', max: 100, half: true };
const company: FieldDef = { name: 'company', type: 'text', label: 'forms.company', required: 'forms.companyRequired', autocomplete: 'organization', max: 200 };
const country: FieldDef = { name: 'country', type: 'country', label: 'forms.country', required: 'forms.countryRequired', autocomplete: 'country' };
const fullName: FieldDef = { name: 'name', type: 'text', label: 'forms.name', required: 'forms.nameRequired', autocomplete: 'name', max: 200 };
const consent: FieldDef = { name: 'consent', type: 'checkbox', label: 'forms.consent', required: CHECKBOX_KEY };

const RETURN = { field: 'separateReturnAddress', equals: 'true' };

export const FORMS: Record<FormKind, FormDef> = {
  openSource: {
    kind: 'openSource',
    title: 'forms.title.openSource',
    submit: 'forms.submit',
    sections: [{
      fields: [
        email(), firstName, lastName, company, country,
        { name: 'product', type: 'text', label: 'forms.product', required: 'forms.productRequired', max: 200, half: true },
        { name: 'serialNumber', type: 'text', label: 'forms.serialNumber', required: 'forms.serialNumberRequired', max: 100, half: true },
        { name: 'message', type: 'textarea', label: 'forms.message', required: 'forms.messageRequired', max: 4000 },
      ],
    }],
  },
  serviceRequest: {
    kind: 'serviceRequest',
    title: 'forms.title.serviceRequest',
    submit: 'forms.submit',
    sections: [
      {
        legend: 'forms.requester',
        fields: [firstName, lastName, email(), { name: 'telephone', type: 'tel', label: 'forms.telephone', autocomplete: 'tel', max: 50, half: true }, { ...company, half: true }],
      },
      {
        legend: 'forms.contactAddress',
        fields: [
          { name: 'address', type: 'text', label: 'forms.address', required: 'forms.addressRequired', autocomplete: 'address-line1', max: 200 },
          { name: 'city', type: 'text', label: 'forms.city', required: 'forms.cityRequired', autocomplete: 'address-level2', max: 100, half: true },
          { name: 'zipCode', type: 'text', label: 'forms.zipCode', required: 'forms.zipCodeRequired', autocomplete: 'postal-code', max: 20, half: true },
          // The state after the country: whether it is needed depends on the country.
          { ...country, half: true },
          { name: 'state', type: 'text', label: 'forms.state', required: 'forms.stateRequired', stateOf: 'country', autocomplete: 'address-level1', max: 100, half: true },
          { name: 'separateReturnAddress', type: 'checkbox', label: 'forms.separateReturnAddress' },
        ],
      },
      {
        legend: 'forms.returnAddress',
        revealedBy: 'separateReturnAddress',
        fields: [
          { name: 'returnAddress', type: 'text', label: 'forms.address', required: 'forms.addressRequired', requiredWhen: RETURN, max: 200 },
          { name: 'returnCity', type: 'text', label: 'forms.city', required: 'forms.cityRequired', requiredWhen: RETURN, max: 100, half: true },
          { name: 'returnZipCode', type: 'text', label: 'forms.zipCode', required: 'forms.zipCodeRequired', requiredWhen: RETURN, max: 20, half: true },
          { name: 'returnCountry', type: 'country', label: 'forms.country', required: 'forms.countryRequired', requiredWhen: RETURN, half: true },
          { name: 'returnState', type: 'text', label: 'forms.state', required: 'forms.stateRequired', requiredWhen: RETURN, stateOf: 'returnCountry', max: 100, half: true },
        ],
      },
      {
        legend: 'forms.request',
        fields: [
          {
            name: 'requestedService', type: 'select', label: 'forms.requestedService', required: 'forms.requestedServiceRequired', half: true,
            options: [
              { value: 'repair', label: 'forms.service.repair' },
              { value: 'maintenance', label: 'forms.service.maintenance' },
              { value: 'installation', label: 'forms.service.installation' },
              { value: 'training', label: 'forms.service.training' },
              { value: 'spareParts', label: 'forms.service.spareParts' },
              { value: 'other', label: 'forms.service.other' },
            ],
          },
          {
            name: 'reason', type: 'select', label: 'forms.reason', half: true,
            options: [
              { value: 'breakdown', label: 'forms.reason.breakdown' },
              { value: 'quality', label: 'forms.reason.quality' },
              { value: 'planned', label: 'forms.reason.planned' },
              { value: 'other', label: 'forms.reason.other' },
            ],
          },
          { name: 'subject', type: 'text', label: 'forms.subject', required: 'forms.subjectRequired', max: 200 },
          { name: 'description', type: 'textarea', label: 'forms.description', required: 'forms.descriptionRequired', max: 4000 },
          {
            name: 'existingCase', type: 'radio', label: 'forms.existingCase', initial: 'no',
            options: [{ value: 'no', label: 'forms.no' }, { value: 'yes', label: 'forms.yes' }],
          },
          { name: 'caseId', type: 'text', label: 'forms.caseId', required: 'forms.caseIdRequired', requiredWhen: { field: 'existingCase', equals: 'yes' }, max: 50 },
        ],
      },
      {
        legend: 'forms.machine',
        fields: [
          { name: 'machineName', type: 'text', label: 'forms.machineName', required: 'forms.machineNameRequired', max: 100, half: true },
          { name: 'serialNumber', type: 'text', label: 'forms.serialNumber', required: 'forms.serialNumberRequired', max: 100, half: true },
          { name: 'warranty', type: 'checkbox', label: 'forms.warranty' },
          { name: 'serviceContract', type: 'checkbox', label: 'forms.serviceContract' },
        ],
      },
    ],
  },
  whitepaper: {
    kind: 'whitepaper',
    title: 'forms.title.whitepaper',
    submit: 'forms.downloadSubmit',
    sections: [{
      fields: [
        fullName, email(), { ...company, half: true }, { ...country, half: true }, consent,
        { name: 'file', type: 'hidden', label: 'forms.file', required: INVALID_KEY, max: 150 },
      ],
    }],
  },
  contact: {
    kind: 'contact',
    title: 'forms.title.contact',
    submit: 'forms.submit',
    sections: [{
      fields: [
        fullName, email(), { ...company, half: true }, { ...country, half: true },
        {
          name: 'topic', type: 'select', label: 'forms.topic', required: 'forms.topicRequired',
          options: [
            { value: 'products', label: 'forms.topic.products' },
            { value: 'service', label: 'forms.topic.service' },
            { value: 'spareParts', label: 'forms.topic.spareParts' },
            { value: 'training', label: 'forms.topic.training' },
            { value: 'other', label: 'forms.topic.other' },
          ],
        },
        // Optional: filled in when the visitor comes from a product or service page ("Request a quote", prefill.ts).
        { name: 'product', type: 'text', label: 'forms.product', max: 200 },
        { name: 'message', type: 'textarea', label: 'forms.message', required: 'forms.messageRequired', max: 4000 },
        consent,
      ],
    }],
  },
};

/** Every field of a form, in order. */
export const fieldsOf = (kind: FormKind): FieldDef[] => FORMS[kind].sections.flatMap((s) => s.fields);

/** Whether a field counts: always, or while its condition holds (values as the form sends them). */
export function isActive(field: FieldDef, values: Record<string, unknown>): boolean {
  if (!field.requiredWhen) return true;
  return textOf(values[field.requiredWhen.field]) === field.requiredWhen.equals;
}

/**
 * Whether a field must have a value, given the form's values: a required field unless its
 * condition does not hold, or (a state field) its country has no states.
 * @example const state = fieldsOf('serviceRequest').find((f) => f.name === 'state')!;
 *   isRequired(state, { country: 'CH' }) // false
 *   isRequired(state, { country: 'US' }) // true
 */
export function isRequired(field: FieldDef, values: Record<string, unknown>): boolean {
  if (!field.required || !isActive(field, values)) return false;
  return field.stateOf ? countryHasStates(textOf(values[field.stateOf])) : true;
}

/** A sent value as text: checkboxes (true, 'on', 'true') as 'true'. */
export function textOf(value: unknown): string {
  if (value === true || value === 'on') return 'true';
  if (value === false || value === undefined || value === null) return '';
  return typeof value === 'string' ? value : '';
}

/** Every message key a form can show for its fields (for the browser's message table). */
export function messageKeysOf(kind: FormKind): MessageKey[] {
  const keys = new Set<MessageKey>([INVALID_KEY]);
  for (const f of fieldsOf(kind)) if (f.required) keys.add(f.required);
  return [...keys];
}

/** Whether a submission filled the honeypot field (then it is answered like a success and not stored). */
export function honeypotFilled(input: unknown): boolean {
  if (!input || typeof input !== 'object') return false;
  const value = (input as Record<string, unknown>)[HONEYPOT_FIELD];
  return typeof value === 'string' ? value.trim() !== '' : value !== undefined && value !== null && value !== false;
}
