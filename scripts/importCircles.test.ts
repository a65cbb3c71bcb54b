import { describe, expect, it } from 'vitest';
import { importCirclesIn } from './importCircles';

describe('import circles', () => {
  it('none takes in a step or the app: a screen finds what its frame needs from its step, never through the step registry', async () => {
    expect(await importCirclesIn('src/steps')).toEqual([]);
    expect(await importCirclesIn('src/app')).toEqual([]);
  });

  it('none in the server or the contract', async () => {
    expect(await importCirclesIn('server')).toEqual([]);
    expect(await importCirclesIn('contract')).toEqual([]);
  });
});
