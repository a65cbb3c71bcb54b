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

const view = (snapshot: { value: unknown; context: { note: string } }) => ({
  at: snapshot.value as string,
  note: snapshot.context.note,
});

/** The oracle: where each event leads, from the table above. */
function oracle({
  event,
  view: before,
  unchanged,
}: {
  event: { type: string };
  view: { at: string; note: string };
  unchanged: () => never;
}) {
  const next: Record<string, Record<string, string>> = { a: { NEXT: 'b', SKIP: 'c' }, b: { BACK: 'a' } };
  if (before.at === 'b' && event.type === 'NOTE_TYPED') return { view: { at: 'b', note: 'x' }, running: [] };
  if (before.at === 'b' && event.type === 'NEXT')
    return before.note ? { view: { at: 'c' }, running: [], output: undefined } : unchanged();
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
      walk({
        name: 'small',
        machine: chart,
        fakes: () => ({}),
        events: {},
        view,
        oracle: oracle as never,
        simplePathLimit: 1,
      }),
    ).rejects.toThrow(/more than 1 simple paths/);
  });

  it('fails when a path goes where the oracle says it must not (b goes on to c with no note)', async () => {
    const wrong = chart.provide({ guards: { hasNote: () => true } });
    await expect(
      walk({ name: 'small', machine: wrong, fakes: () => ({}), events: {}, view, oracle: oracle as never }),
    ).rejects.toThrow(/the oracle disagrees/);
  });
});

/**
 * A reply that ends the wait only the third time (after two pauses), and a start decided by the
 * input: a chart path (REPLY straight to done) that no simple route of the real machine takes, and
 * one (from `paused`) that only another input starts.
 */
const retries = setup({
  types: { context: {} as { replies: number } },
  // Where the page opens is decided outside the chart: a variant gives the other answer.
  guards: { third: ({ context }) => context.replies >= 2, startsPaused: () => false },
}).createMachine({
  id: 'retries',
  context: { replies: 0 },
  initial: 'deciding',
  states: {
    deciding: { always: [{ guard: 'startsPaused', target: 'paused' }, { target: 'waiting' }] },
    waiting: {
      on: {
        REPLY: [
          { guard: 'third', target: 'done' },
          { target: 'paused', actions: assign({ replies: ({ context }) => context.replies + 1 }) },
        ],
      },
    },
    paused: { on: { AGAIN: 'waiting' } },
    done: { type: 'final' },
  },
});

const retriesView = (snapshot: { value: unknown; context: { replies: number } }) => ({
  at: snapshot.value as string,
  replies: snapshot.context.replies,
});

function retriesOracle({
  event,
  view: before,
  unchanged,
}: {
  event: { type: string };
  view: { at: string; replies: number };
  unchanged: () => never;
}) {
  if (before.at === 'waiting' && event.type === 'REPLY') {
    return before.replies >= 2
      ? { view: { at: 'done' }, running: [], output: undefined }
      : { view: { at: 'paused', replies: before.replies + 1 }, running: [] };
  }
  if (before.at === 'paused' && event.type === 'AGAIN') return { view: { at: 'waiting' }, running: [] };
  return unchanged();
}

/** The chart's paths the real machine cannot take: REPLY straight on to done, from either start. */
const straightToDone = {
  why: 'the third reply comes only after two pauses',
  matches: ({ moves }: { moves: Array<{ to: string }> }) => moves.some((m) => m.to === '"done"'),
};

describe('walk: chart paths a guard rules out, and starts another input gives', () => {
  const base = {
    name: 'retries',
    fakes: () => ({}),
    events: {},
    askIgnored: true,
    view: retriesView,
    oracle: retriesOracle as never,
  };

  it('fails while a chart path no state of the walk takes is not stated unreachable', async () => {
    await expect(walk({ ...base, machine: retries, paths: { keep: false } })).rejects.toThrow(
      /no state of the walk takes/,
    );
  });

  it('walks the start only another input gives, and leaves out of the bound only the paths stated and tested unreachable', async () => {
    const result = await walk({
      ...base,
      machine: retries,
      variants: [
        { name: 'fresh' },
        { name: 'paused', routesOnly: true, provide: { guards: { startsPaused: () => true } } },
      ],
      paths: { keep: false, unreachable: [straightToDone] },
    });
    // Of the chart's five paths the three that reach done are ruled out; waiting→paused, and paused→waiting from the other start, are walked.
    expect(result.chartPaths).toEqual({ bound: 2, walked: 2, missing: [] });
  });

  it('fails a path stated unreachable that the walk takes', async () => {
    const anyMove = { why: 'wrongly', matches: () => true };
    await expect(
      walk({
        ...base,
        machine: retries,
        variants: [
          { name: 'fresh' },
          { name: 'paused', routesOnly: true, provide: { guards: { startsPaused: () => true } } },
        ],
        paths: { keep: false, unreachable: [anyMove] },
      }),
    ).rejects.toThrow(/stated unreachable \(wrongly\) but walked/);
  });
});
