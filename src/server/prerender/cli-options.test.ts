import { describe, expect, it } from 'vitest';
import { killAtStepFromEnv } from './cli-options.ts';

describe('PRERENDER_KILL_AT', () => {
  it('is off when unset', () => {
    expect(killAtStepFromEnv({})).toBeUndefined();
  });

  it('kills at the named step only', () => {
    const kills: string[] = [];
    const onStep = killAtStepFromEnv({ PRERENDER_KILL_AT: 'published' }, () => kills.push('killed'))!;
    onStep('linked');
    onStep('rendered');
    expect(kills).toEqual([]);
    onStep('published');
    expect(kills).toEqual(['killed']);
  });

  it('refuses a step that does not exist, naming the valid ones', () => {
    expect(() => killAtStepFromEnv({ PRERENDER_KILL_AT: 'halfway' })).toThrow(/PRERENDER_KILL_AT must be one of linked, half-rendered, .*staged \(got "halfway"\)/);
  });
});
