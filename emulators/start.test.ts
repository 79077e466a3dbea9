import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { siteOriginsOf } from './start.ts';

const content = join(dirname(fileURLToPath(import.meta.url)), 'data/content');

describe('the sign-out origins of the identity emulator', () => {
  it('are the loopback hosts of the demo sites on each app port (public hosts left out)', () => {
    expect(siteOriginsOf(['http://localhost:4321', 'http://localhost:4500'], content)).toEqual([
      'http://localhost:4321', 'http://events.localhost:4321', 'http://partner.localhost:4321',
      'http://localhost:4500', 'http://events.localhost:4500', 'http://partner.localhost:4500',
    ]);
  });
});
