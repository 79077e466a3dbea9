import { describe, expect, it } from 'vitest';
import { tr, type Messages } from './island-kit.tsx';

const m: Messages<'wireFlow.version'> = {
  'wireFlow.version': 'Version {{version}}',
  'serviceError.title': 'x', 'serviceError.text': 'x', 'serviceError.contact': 'x', 'serviceError.details': 'x', 'serviceError.retry': 'x',
  'serviceError.noAccessTitle': 'x', 'serviceError.noAccessText': 'x', 'serviceError.noAccessHow': 'x', 'serviceError.noAccessAsk': 'x',
  'serviceError.toDashboard': 'x', 'serviceError.loading': 'x', 'serviceError.signInFailed': 'x', 'serviceError.unknownOutcome': 'x', 'serviceError.uploadStalled': 'x',
};

describe('tr', () => {
  it("fills the placeholders of one of the island's messages", () => {
    expect(tr(m, 'wireFlow.version', { version: '4.2' })).toBe('Version 4.2');
  });

  it("takes only the island's own keys and the kit's (tsc checks the expected error); a key missing at run time shows the key", () => {
    // @ts-expect-error 'wireFlow.latest' is not among the messages' keys
    expect(tr(m, 'wireFlow.latest')).toBe('wireFlow.latest');
  });
});
