import { describe, expect, it } from 'vitest';
import { importCirclesIn } from './importCircles';

describe('import circles', () => {
  it('none takes in a step or the app: a screen finds what its frame needs from its step, never through the step registry', async () => {
    expect(await importCirclesIn('src/steps')).toEqual([]);
    expect(await importCirclesIn('src/app')).toEqual([]);
  });

  it('none anywhere in the app, lazy imports included: what a lazily loaded module shares with its loader lives in a module of its own', async () => {
    expect(await importCirclesIn('src')).toEqual([]);
  });

  it('none in the server, the contract, the charts, the catalogue code or the shared UI', async () => {
    for (const folder of ['server', 'contract', 'machines', 'i18n', 'ui'])
      expect(await importCirclesIn(folder), folder).toEqual([]);
  });
});
