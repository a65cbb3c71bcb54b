/**
 * For mutation runs only (vitest.machines.config.ts). Stryker's vitest runner builds a mutant's
 * verdict from the tests vitest collected; a test file whose imports throw (a mutant that breaks
 * a chart's definition, e.g. an `initial` naming no state) collects none, so the mutant would be
 * counted as survived although every test of that file failed (stryker-js issue 6150). This
 * reporter gives each such file one failed test carrying its load error, so the mutant is killed.
 */
import type { RunnerTestCase } from 'vitest';
import type { Vitest } from 'vitest/node';
import type { Reporter } from 'vitest/reporters';

export default class LoadFailureReporter implements Reporter {
  private vitest: Vitest | undefined;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
  }

  /** Runs before Stryker reads the files' tests from the same state. */
  onTestRunEnd(): void {
    for (const file of this.vitest?.state.getFiles() ?? []) {
      if (file.result?.state !== 'fail' || file.tasks.length > 0) continue;
      // vitest's own test objects also carry a context, which only vitest can build and no
      // reader needs once the run is over.
      const failed = {
        type: 'test',
        id: `${file.id}-load`,
        name: 'loads its imports',
        mode: 'run',
        meta: {},
        file,
        suite: file,
        timeout: 0,
        annotations: [],
        artifacts: [],
        result: { state: 'fail', errors: file.result.errors ?? [] },
      } as unknown as RunnerTestCase;
      file.tasks.push(failed);
    }
  }
}
