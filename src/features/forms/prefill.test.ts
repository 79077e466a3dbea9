import { describe, expect, it } from 'vitest';
import { formPrefill, prefilledFormPath, quoteRequestPath } from './prefill.ts';

describe('prefilled request forms', () => {
  it('a quote request for a product opens the contact form with the products topic and the product named', () => {
    const path = quoteRequestPath('en', { kind: 'product', name: 'Kappa 310' }, '/en/products/wire-processing/cut-strip/kappa-310');
    const url = new URL(path, 'http://localhost');
    expect(url.pathname).toBe('/en/forms/contact');
    expect(url.searchParams.get('from')).toBe('/en/products/wire-processing/cut-strip/kappa-310');
    expect(formPrefill('contact', url.searchParams)).toEqual({ topic: 'products', product: 'Kappa 310' });
  });

  it('a service page asks for an expert on the service topic', () => {
    const url = new URL(quoteRequestPath('de', { kind: 'service', name: 'Wartungsvertrag Plus' }, '/de/services/x'), 'http://localhost');
    expect(url.pathname).toBe('/de/forms/contact');
    expect(formPrefill('contact', url.searchParams)).toEqual({ topic: 'service', product: 'Wartungsvertrag Plus' });
  });

  it('takes only the prefillable fields, each as the field accepts it', () => {
    const q = new URLSearchParams({ topic: 'bogus', product: 'A\nB', consent: 'true', email: 'x@example.com', message: 'hi' });
    expect(formPrefill('contact', q)).toEqual({});
    expect(formPrefill('contact', new URLSearchParams({ product: 'x'.repeat(201) }))).toEqual({});
    expect(formPrefill('contact', new URLSearchParams({ product: '  Omega 750  ', topic: 'service' }))).toEqual({ topic: 'service', product: 'Omega 750' });
    // Forms without prefillable fields take nothing.
    expect(formPrefill('serviceRequest', new URLSearchParams({ subject: 'x' }))).toEqual({});
  });

  it('a form path without values is the plain form page', () => {
    expect(prefilledFormPath('en', 'contact', {})).toBe('/en/forms/contact');
  });
});
