import { describe, expect, it } from 'vitest';
import en from '../../../locales/en.json' with { type: 'json' };
import { MAX_UPLOAD_BYTES } from '../../lib/ticketing/limits.ts';
import { fieldErrorsByField, validateComment, validateFile, validateTicketForm, withField, type TicketFormValues } from './validation.ts';

const messages = en as Record<string, string>;

describe('validateTicketForm', () => {
  it('names every empty required field with the spec\'s message, verbatim in English', () => {
    const errors = validateTicketForm({ locationId: '', type: '', machineId: ' ', subject: '', description: '\n', machineName: '', serialNumber: '' });
    expect(Object.fromEntries(Object.entries(errors).map(([f, k]) => [f, messages[k]]))).toEqual({
      locationId: 'Please select a location',
      type: 'Please select a ticket type',
      machineId: 'Please select a machine concerned',
      subject: 'Please enter the subject',
      description: 'Please enter the description',
    });
  });

  it('accepts a complete form; machine name and serial number are optional', () => {
    expect(validateTicketForm({ locationId: 'loc-1', type: 'REPAIR', machineId: 'mch-1', subject: 'Blade', description: 'Worn', machineName: '', serialNumber: '' })).toEqual({});
  });
});

describe('validateComment', () => {
  it('asks for a comment when it is blank', () => {
    expect(messages[validateComment('   ')!]).toBe('Please enter a comment');
    expect(validateComment('Thanks')).toBeNull();
  });
});

describe('validateFile', () => {
  it('takes images and videos of at most 100 MB', () => {
    expect(validateFile({ size: MAX_UPLOAD_BYTES, type: 'image/png' })).toBeNull();
    expect(validateFile({ size: 5, type: 'video/mp4' })).toBeNull();
    expect(validateFile({ size: MAX_UPLOAD_BYTES + 1, type: 'image/png' })).toBe('tickets.files.tooLarge');
    expect(validateFile({ size: 5, type: 'application/pdf' })).toBe('tickets.files.notMedia');
    expect(validateFile({ size: 5, type: 'image/svg+xml' })).toBe('tickets.files.notMedia');
    expect(validateFile({ size: 5, type: '' })).toBe('tickets.files.notMedia');
  });
});

describe('fieldErrorsByField', () => {
  it('puts the service\'s validation errors on their fields, the rest on the form', () => {
    expect(fieldErrorsByField([
      { field: 'subject', code: 'TOO_LONG', message: 'The subject may have at most 200 characters' },
      { field: null, code: 'NotFoundError', message: 'No machine' },
      { field: 'subject', code: 'REQUIRED', message: 'second' },
    ])).toEqual({ subject: 'The subject may have at most 200 characters', '': 'No machine' });
  });
});

describe('withField: the ticket form after one change', () => {
  const EMPTY: TicketFormValues = { locationId: '', type: '', machineId: '', subject: '', description: '', machineName: '', serialNumber: '' };
  const MACHINES = [{ id: 'm1', locationId: 'l1' }, { id: 'm2', locationId: 'l2' }];

  it('brings the location of a machine picked without one, and keeps a location already chosen', () => {
    expect(withField(EMPTY, 'machineId', 'm1', MACHINES)).toMatchObject({ machineId: 'm1', locationId: 'l1' });
    expect(withField({ ...EMPTY, locationId: 'l2' }, 'machineId', 'm1', MACHINES)).toMatchObject({ machineId: 'm1', locationId: 'l2' });
  });

  it('clears a machine of another location, and keeps it when the location is cleared or is its own', () => {
    const picked = { ...EMPTY, machineId: 'm1', locationId: 'l1' };
    expect(withField(picked, 'locationId', 'l2', MACHINES)).toMatchObject({ machineId: '', locationId: 'l2' });
    expect(withField(picked, 'locationId', '', MACHINES)).toMatchObject({ machineId: 'm1', locationId: '' });
    expect(withField(picked, 'locationId', 'l1', MACHINES)).toMatchObject({ machineId: 'm1' });
    expect(withField(picked, 'subject', 'Crimp', MACHINES)).toEqual({ ...picked, subject: 'Crimp' });
  });
});

