import { describe, expect, it } from 'vitest';
import { assign, setup } from 'xstate';
import { walk } from './walk';

/**
 * A small chart with a way back: a to b, b to c, a straight to c, b back to a, and a step in b that
 * changes only the context (NOTE_TYPED) and must be taken before b can go on to c.
 */
const chart = setup({
  types: { context: {} as { note: string } },
  guards: { hasNote: ({ context }) => context.note !== '' },
}).createMachine({
  id: 'small',
  context: { note: '' },
  initial: 'a',
  states: {
    a: { on: { NEXT: 'b', SKIP: 'c' } },
    b: {
      on: {
        NOTE_TYPED: { actions: assign({ note: 'x' }) },
        NEXT: { guard: 'hasNote', target: 'c' },
        BACK: 'a',
      },
    },
    c: { type: 'final' },
  },
});

const view = (snapshot: { value: unknown; context: { note: string } }) => ({ at: snapshot.value as string, note: snapshot.context.note });

/** The oracle: where each event leads, from the table above. */
function oracle({ event, view: before, unchanged }: { event: { type: string }; view: { at: string; note: string }; unchanged: () => never }) {
  const next: Record<string, Record<string, string>> = { a: { NEXT: 'b', SKIP: 'c' }, b: { BACK: 'a' } };
  if (before.at === 'b' && event.type === 'NOTE_TYPED') return { view: { at: 'b', note: 'x' }, running: [] };
  if (before.at === 'b' && event.type === 'NEXT') return before.note ? { view: { at: 'c' }, running: [], output: undefined } : unchanged();
  const to = next[before.at]?.[event.type];
  if (!to) return unchanged();
  return to === 'c' ? { view: { at: 'c' }, running: [], output: undefined } : { view: { at: to }, running: [] };
}

describe('walk', () => {
  it('walks every simple path: a-b-c (through the context step in b), a-c, and their beginnings a-b', async () => {
    const result = await walk({
      name: 'small',
      machine: chart,
      paths: { keep: false },
      fakes: () => ({}),
      events: {},
      askIgnored: true,
      view,
      oracle: oracle as never,
    });
    // a→b, a→b→c, a→c: three simple paths, two of them maximal (a→b is the beginning of a→b→c).
    expect(result.simplePaths).toEqual({ total: 3, maximal: 2 });
    // Counted on the chart itself (every guard free), the same three, all walked.
    expect(result.chartPaths).toEqual({ bound: 3, walked: 3, missing: [] });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });

  it('fails a chart with more simple paths than it may walk, rather than leave some unwalked', async () => {
    await expect(
      walk({ name: 'small', machine: chart, fakes: () => ({}), events: {}, view, oracle: oracle as never, simplePathLimit: 1 }),
    ).rejects.toThrow(/more than 1 simple paths/);
  });

  it('fails when a path goes where the oracle says it must not (b goes on to c with no note)', async () => {
    const wrong = chart.provide({ guards: { hasNote: () => true } });
    await expect(walk({ name: 'small', machine: wrong, fakes: () => ({}), events: {}, view, oracle: oracle as never })).rejects.toThrow(
      /the oracle disagrees/,
    );
  });
});
