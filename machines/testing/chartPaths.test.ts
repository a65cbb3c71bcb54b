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
    expect(
      [...keys]
        .map((key) =>
          key
            .split('\n')
            .slice(1)
            .map((step) => step.replace(/"/g, ''))
            .join(', '),
        )
        .sort(),
    ).toEqual([
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

  it('compares a region’s merged states by what that region does, whatever the other region is doing', () => {
    // A finder shown with saved addresses or without: the same steps out; a sending region beside it.
    const form = createMachine({
      id: 'form',
      type: 'parallel',
      states: {
        lookup: {
          initial: 'withSaved',
          states: {
            withSaved: { on: { FIND: 'searching' } },
            withoutSaved: { on: { FIND: 'searching' } },
            searching: { on: { FOUND: [{ guard: 'saved', target: 'withSaved' }, { target: 'withoutSaved' }] } },
          },
        },
        request: { initial: 'idle', states: { idle: { on: { SEND: 'sending' } }, sending: { on: { SENT: 'idle' } } } },
      },
    });
    const graph = chartGraph(form);
    const [lookup] = regionProjections(form);
    const finder = (s: { value: unknown }) => {
      const at = (s.value as { lookup: string }).lookup;
      return at === 'searching' ? at : 'finder';
    };
    // Whole states are told apart by the other region too: as whole states they never behave alike.
    expect(unsafeMerges(graph, finder as never)).not.toEqual([]);
    // As the lookup sees them, FIND searches from either, and the other region's steps keep either: alike.
    expect(unsafeMerges(graph, finder as never, lookup)).toEqual([]);
    // Searching merged with the finder is not: FOUND is taken only while searching, FIND only before.
    const searchingAsFinder = (s: { value: unknown }) =>
      (s.value as { lookup: string }).lookup === 'withoutSaved' ? 'without' : 'other';
    expect(unsafeMerges(graph, searchingAsFinder as never, lookup)).not.toEqual([]);
  });
});
