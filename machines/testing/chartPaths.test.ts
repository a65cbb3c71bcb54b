import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import { chartGraph, chartSimplePaths, regionProjections, unsafeMerges } from './chartPaths';

/** Two ticks that behave alike (each goes on to the next or ends), and a guarded way out of the first. */
const chart = createMachine({
  id: 'ticks',
  initial: 'one',
  states: {
    one: { on: { TICK: 'two', STOP: [{ guard: 'early', target: 'done' }, { target: 'two' }] } },
    two: { on: { TICK: 'three', STOP: 'done' } },
    three: { on: { TICK: 'two', STOP: 'done' } },
    done: { type: 'final' },
  },
});

describe('the simple paths of a chart, every guard free', () => {
  it('counts each guard branch as a way out, and each beginning of a route once', () => {
    const graph = chartGraph(chart);
    const { keys, complete } = chartSimplePaths(graph, regionProjections(chart));
    expect(complete).toBe(true);
    // one-TICK-two, one-STOP-done, one-STOP-two, then from two: three (and done), done; from three: done.
    expect([...keys].map((key) => key.split('\n').slice(1).map((step) => step.replace(/"/g, '')).join(', ')).sort()).toEqual([
      'STOP -> done',
      'STOP -> two',
      'STOP -> two, STOP -> done',
      'STOP -> two, TICK -> three',
      'STOP -> two, TICK -> three, STOP -> done',
      'TICK -> two',
      'TICK -> two, STOP -> done',
      'TICK -> two, TICK -> three',
      'TICK -> two, TICK -> three, STOP -> done',
    ]);
  });

  it('accepts a projection that merges states only when they behave alike', () => {
    const graph = chartGraph(chart);
    const ticking = (s: { value: unknown }) => (s.value === 'two' || s.value === 'three' ? 'ticking' : String(s.value));
    expect(unsafeMerges(graph, ticking as never)).toEqual([]);
    // 'one' has a way out the others lack (STOP may end it at once, or not): merging it is not safe.
    const all = (s: { value: unknown }) => (s.value === 'done' ? 'done' : 'ticking');
    expect(unsafeMerges(graph, all as never)).not.toEqual([]);
  });
});
