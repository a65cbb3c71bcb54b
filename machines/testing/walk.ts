/**
 * Model-based walking of a real chart, checked against an oracle that does not come from the chart.
 *
 * Paths come from the chart itself (`xstate/graph`), for coverage: the shortest path to every
 * state, extended by every transition out of it; every simple path (a route that never comes back
 * to a state it has left, each region of a parallel state on its own); plus any explicit event
 * sequences. Each path runs
 * against a real actor of the machine with fake actors and a simulated clock: actor completions are
 * delivered by settling the fake that was really invoked, `xstate.after.*` by advancing the clock.
 *
 * After every step the walker asks the ORACLE what the buyer must see now, and asserts it:
 * - `view`: a partial of the machine's view model (its `*.connect.ts`), i.e. what the screen shows;
 * - `running`: the ids of the invoked children in flight (the calls the buyer is waiting for);
 * - `started`: the calls that started in this step, with their input (default: none);
 * - `sent`: what this step sent to recorded children, spied actions and the parent (default: none);
 * - `output`: the machine's output, when the step must finish it (default: the machine goes on).
 * The oracle is written from the spec (a table, a pure rule such as `nextStep`), never from the
 * chart's state names; a walked step for which it has no expectation FAILS the walk, so a new
 * transition cannot sneak in untested. With `askIgnored`, every state is also offered the events
 * of the table it does not accept, and the oracle must answer `unchanged()` for them: so a chart
 * that loses a transition (or a whole state) fails too, not only one that takes a wrong one.
 * A chart that throws, or ends in an error, fails the walk whatever the oracle says. Coverage is measured on what the actors really did (every
 * state node and every transition), printed, and returned for the test to require 100 %.
 *
 * A new machine gets all of this by writing its view and its expectation table:
 *
 *   const result = await walk({
 *     name: 'stepSaver',
 *     machine: stepSaverMachine,
 *     fakes: (kit) => ({ actors: { updateBasketState: kit.controlled() } }),
 *     parentActions: ['reportSaved', 'reportFailed'],
 *     askIgnored: true,
 *     events: { SAVE: [{ type: 'SAVE', state: 'login' }] },
 *     view: (snapshot) => ({ saving: snapshot.children.updateBasketState !== undefined }),
 *     oracle: ({ event, view, unchanged }) => {
 *       if (event.type === 'SAVE' && !view.saving)
 *         return { view: { saving: true }, running: ['updateBasketState'],
 *                  started: { updateBasketState: [{ state: 'login' }] } };
 *       if (event.type === 'SAVE') return unchanged(); // (the real saver queues it)
 *       return undefined; // unknown (state, event) pair: the walk fails
 *     },
 *   });
 *   expect(result.states.missing).toEqual([]);
 *   expect(result.transitions.missing).toEqual([]);
 */
import {
  createActor,
  createMachine,
  fromCallback,
  fromPromise,
  initialTransition,
  SimulatedClock,
  transition,
  type AnyActorRef,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventObject,
  type InspectionEvent,
  type SnapshotFrom,
} from 'xstate';
import { isDeepStrictEqual } from 'node:util';
import { getAdjacencyMap, getShortestPaths, type StatePath } from 'xstate/graph';
import {
  chartGraph,
  chartSimplePaths,
  regionProjections as chartRegions,
  unsafeMerges,
  walkedSimplePaths,
  type Projection,
} from './chartPaths';
import { keepPaths, type PathsEntry } from './paths';

type Snapshot = SnapshotFrom<AnyStateMachine>;

/** An event with its payload, e.g. `{ type: 'xstate.done.actor.loadCheckout', output }`. */
export type WalkEvent = { type: string } & Record<string, unknown>;

/** What every path run gets: controllable actors and logs of what the machine did. */
export interface WalkKit {
  /** A promise actor that stays pending until the walk delivers its done or error event. */
  // The walk's actors stand in for any actor of the chart, whatever input it is started with.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  controlled: <TOutput = unknown>() => ReturnType<typeof fromPromise<TOutput, any>>;
  /** A callback actor that records every event sent to it under `name`. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  recorder: (name: string) => ReturnType<typeof fromCallback<EventObject, any>>;
  /** An action implementation that records its params under `name`. */
  spy: (name: string) => (args: unknown, params: unknown) => void;
  /** Inputs the controlled actors were started with, by actor id, in order. */
  inputs: Record<string, unknown[]>;
  /** Events the recorders received, actions the spies saw, and what was sent to the parent. */
  log: Array<{ to: string; event: unknown }>;
}

export interface StepCheck {
  event: EventObject;
  before: Snapshot;
  after: Snapshot;
  kit: WalkKit;
  /** The log entries this step produced (events sent to recorders and the parent, spied actions). */
  produced: WalkKit['log'];
}

/** A partial of a view model: only the fields given are compared (objects recursively). */
export type PartialView<V> = V extends readonly unknown[]
  ? V
  : V extends object
    ? { [K in keyof V]?: PartialView<V[K]> }
    : V;

/** What the buyer must see after a step, and what the machine must be doing. */
export interface Expectation<V> {
  /** Fields of the view model after the step. */
  view: PartialView<V>;
  /** Ids of the invoked children running after the step (the `background` ones left out), any order. */
  running: string[];
  /** Calls (controlled actors) started by this step, by id, with their inputs in order. Default: none. */
  started?: Record<string, unknown[]>;
  /** Events sent by this step, by recorder, spy or 'parent', in order. Default: nothing sent. */
  sent?: Record<string, unknown[]>;
  /** The machine's output when this step must end it. Without it, the machine must still be running. */
  output?: unknown;
}

/** What the oracle is asked: the step about to be taken, from what the buyer saw before it. */
export interface OracleQuestion<V> {
  /** The event with its payload (`output` of a call, `state` of a SAVE, ...). */
  event: WalkEvent;
  /** The view model before the step. */
  view: V;
  before: Snapshot;
  /** The inputs of every call started so far in this path, by id. */
  inputs: Record<string, unknown[]>;
  /** The earlier steps of this path: each event with the view it was taken from. */
  earlier: Array<{ event: WalkEvent; view: V }>;
  /**
   * The answer for an event the spec says must be ignored here: the whole view stays as it was,
   * nothing starts, nothing is sent, and the calls in flight go on (but the one whose reply this
   * is, which has finished).
   */
  unchanged: () => Expectation<V>;
}

export interface WalkVariant {
  name: string;
  /** Implementations for this variant (typically guards), on top of the fakes. */
  provide?: Parameters<AnyStateMachine['provide']>[0];
  /** The machine's input for this variant, instead of the walk's. */
  input?: unknown;
  /**
   * Walk from this variant only the chart's simple paths the others do not take (a start the
   * others never have, a page opened on a live hold), not every transition of it again.
   */
  routesOnly?: boolean;
  /** Events this variant offers beside (or instead of) the walk's, by type. */
  events?: Record<string, WalkEvent[]>;
  /** What tells this variant's states apart, instead of the walk's `serializeState` (a finer one finds more routes). */
  serializeState?: (snapshot: Snapshot) => string;
}

interface WalkBase {
  name: string;
  machine: AnyStateMachine;
  /** The fakes, made once for each variant of the walk; the kit they use is emptied before every path, so logs and pending actors never leak between paths. */
  fakes: (kit: WalkKit) => Parameters<AnyStateMachine['provide']>[0];
  /**
   * Events to offer in each state, by type; types not listed are offered as `{ type }`. Every state
   * is offered the events its chart accepts there and, with `askIgnored`, every event of this table
   * as well (the reply of a call only while that call is running), so the oracle is also
   * asked about the events the chart ignores and must answer `unchanged()` for them: a chart that
   * loses a transition then fails the walk. `xstate.after.*` is offered only where the chart has it.
   */
  events: Record<string, WalkEvent[]>;
  /**
   * Offer the events of `events` in every state, not only where the chart accepts them. Every walk
   * should: without it, a mutant that deletes a transition is never asked about.
   */
  askIgnored?: boolean;
  input?: unknown;
  /** Identifies a state for path generation: the value plus the context that matters. */
  serializeState?: (snapshot: Snapshot) => string;
  /**
   * Actions that send to a parent. Path generation runs without a parent, so they are replaced by
   * no-ops there (they change no context); the real runs keep them and a recording parent.
   */
  parentActions?: string[];
  /** Run the same walk again with other implementations (for guards decided outside the chart). */
  variants?: WalkVariant[];
  /** Explicit event sequences from the initial state, run in addition to the generated paths. */
  extraPaths?: Array<{ variant?: string; events: WalkEvent[] }>;
  /** Extra checks of each step, after the oracle's. */
  check?: (step: StepCheck) => void;
  /** Upper bound for the traversal, to fail fast if the serialised state space explodes. */
  limit?: number;
  /** At most this many maximal simple paths are walked (default 4000); a chart with more fails the walk. */
  simplePathLimit?: number;
  /**
   * What a simple path may not visit twice, one walk of simple paths per entry (default: the state
   * value; for a parallel machine, each region's value). A root whose steps hold children of their
   * own gives its step, so its simple paths are the routes through the steps.
   */
  simplePathsOver?: Array<(snapshot: Snapshot) => string>;
  /**
   * The walk's entry in reports/paths.json (`paths.ts`): the simple paths of the chart (every guard
   * free) and how many of them the walk took, checked against the file. `false` for a walk whose
   * paths another test keeps (the root's routes).
   */
  paths?:
    | false
    | {
        /** The entry's name (default: the machine's id). */
        name?: string;
        /** Another walk of the machine follows in this file: the paths are counted together and checked with the last. */
        follow?: boolean;
        /** Counted and returned only, not kept in the file (a chart made up for a test of the walker). */
        keep?: false;
        /**
         * With `simplePathsOver`: what it merges and why those states behave alike. The walk proves it
         * on the chart (every two merged states lead, by the same events, to the same merged states).
         */
        merge?: string;
        /**
         * Simple paths of the chart (every guard free) that the real machine cannot take, each group
         * with why: a guard that asks for what only a way round a loop gives (nine retries, a second
         * try), which a simple path never takes. The walk searches the real machine's states for each
         * path it has not walked (and walks the ones it finds); a path it cannot find must be in a
         * group here, and every path of a group must be one it cannot find, so the bound is tested.
         */
        unreachable?: Array<{ why: string; matches: (route: ChartRoute) => boolean }>;
      };
}

/** A simple path of the chart: its projected start and each move's event and projected state. */
export interface ChartRoute {
  start: string;
  moves: Array<{ type: string; to: string }>;
}

export interface WalkOptions<V> extends WalkBase {
  /** The machine's view model: what the screens read (its `*.connect.ts`). */
  view: (snapshot: Snapshot) => V;
  /** What must hold after each walked step; undefined for a step it does not know fails the walk. */
  oracle: (question: OracleQuestion<V>, variant: string | undefined) => Expectation<V> | undefined;
  /** What must hold once the machine has started, before any event. */
  initial?: (variant: string | undefined) => Expectation<V>;
  /** Children that live as long as the machine (spawned helpers), left out of `running`. */
  background?: string[];
}

/**
 * @deprecated A walk without an oracle proves only that states were visited, not that they are
 * right. Kept until the last machines are converted; new walks pass `view` and `oracle`.
 */
export interface UncheckedWalkOptions extends WalkBase {
  view?: undefined;
  oracle?: undefined;
}

export interface WalkResult {
  name: string;
  paths: number;
  /**
   * The simple paths (no state value left and come back to), all walked: `total` of them, as
   * `maximal` paths that are no beginning of another. A chart with more than the walk's
   * `simplePathLimit` fails the walk.
   */
  simplePaths: { total: number; maximal: number };
  /** The chart's simple paths (every guard free, over the walk's projection) and the ones the walks of this machine took so far. */
  chartPaths?: { bound: number; walked: number; missing: string[] };
  states: { covered: number; total: number; missing: string[] };
  transitions: { covered: number; total: number; missing: string[] };
}

/* ---------- the definition: every state node and every transition ---------- */

function allStateNodes(root: AnyStateNode): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    for (const child of Object.values(node.states) as AnyStateNode[]) {
      nodes.push(child);
      visit(child);
    }
  };
  visit(root);
  return nodes;
}

function transitionKey(t: AnyTransitionDefinition): string {
  const source = t.source;
  const list: AnyTransitionDefinition[] =
    t.eventType === '' ? (source.always ?? []) : (source.transitions.get(t.eventType) ?? []);
  const index = list.indexOf(t);
  return `${source.id} ${t.eventType === '' ? '(always)' : t.eventType} #${index}`;
}

function allTransitions(root: AnyStateNode): string[] {
  const keys: string[] = [];
  for (const node of [root, ...allStateNodes(root)]) {
    for (const list of node.transitions.values()) for (const t of list) keys.push(transitionKey(t));
    for (const t of node.always ?? []) keys.push(transitionKey(t));
  }
  return keys;
}

/** The active state nodes of a snapshot (the root left out), by id. */
function activeNodeIds(snapshot: Snapshot, _nodes: AnyStateNode[]): string[] {
  return (snapshot._nodes as AnyStateNode[]).filter((node) => node.path.length > 0).map((node) => node.id);
}

/* ---------- running one path against a real actor ---------- */

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

async function flush() {
  for (let i = 0; i < 5; i++) await settle();
}

function makeKit() {
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const starts: Array<{ id: string; input: unknown }> = [];
  const kit: WalkKit = {
    inputs: {},
    log: [],
    controlled: () =>
      fromPromise(({ input, self }) => {
        (kit.inputs[self.id] ??= []).push(input);
        starts.push({ id: self.id, input });
        return new Promise((resolve, reject) => pending.set(self.id, { resolve, reject }));
      }) as never,
    recorder: (name) =>
      fromCallback(({ receive }) => {
        receive((event) => kit.log.push({ to: name, event }));
      }) as never,
    spy: (name) => (_args, params) => kit.log.push({ to: name, event: params ?? null }),
  };
  return { kit, pending, starts };
}

function delayOf(machine: AnyStateMachine, eventType: string, snapshot: Snapshot): number {
  const name = eventType.slice('xstate.after.'.length).split('.')[0]!;
  const numeric = Number(name);
  if (!Number.isNaN(numeric)) return numeric;
  const delay = (machine.implementations.delays as Record<string, unknown>)[name];
  if (typeof delay === 'number') return delay;
  if (typeof delay === 'function') return delay({ context: snapshot.context, event: { type: eventType } }, undefined);
  throw new Error(`Unknown delay '${name}'`);
}

/** The id of the call whose reply an event is (`xstate.done.actor.<id>`, `xstate.error.actor.<id>`). */
function replyOf(type: string): string | undefined {
  for (const prefix of ['xstate.done.actor.', 'xstate.error.actor.'])
    if (type.startsWith(prefix)) return type.slice(prefix.length);
  return undefined;
}

/**
 * An event as text, errors by their class, message and own fields (a status, the server's words):
 * JSON alone writes an Error with only its own fields, and a plain one as `{}`, so two replies that
 * differ only in their error (a refusal in words, an empty one, a lost hold) would count as one
 * event and only one of them would be walked.
 */
function serializeEvent(event: unknown): string {
  return JSON.stringify(event, (_key, v) => (v instanceof Error ? { [v.constructor.name]: v.message, ...v } : v));
}

function describeEvent(event: EventObject) {
  const { type, ...rest } = event as EventObject & Record<string, unknown>;
  const detail = Object.keys(rest).length ? ` ${serializeEvent(rest).slice(0, 120)}` : '';
  return `${type}${detail}`;
}

/* ---------- comparing with the oracle ---------- */

function show(value: unknown): string {
  return JSON.stringify(value, (_key, v) => (v instanceof Error ? `Error(${v.message})` : v));
}

const exactValues = new WeakSet<object>();

/**
 * Marks an expected object to be compared whole, not as a partial: for a record keyed by data
 * (quantities or warnings by ticket id), where an extra key is as wrong as a missing one.
 */
export function exactly<T extends object>(value: T): T {
  exactValues.add(value);
  return value;
}

/** Differences between an expected partial and the actual value, as readable lines. */
function differences(expected: unknown, actual: unknown, at: string): string[] {
  if (expected !== null && typeof expected === 'object' && !Array.isArray(expected) && !exactValues.has(expected)) {
    if (actual === null || typeof actual !== 'object')
      return [`${at}: expected ${show(expected)}, got ${show(actual)}`];
    return Object.entries(expected as Record<string, unknown>).flatMap(([key, value]) =>
      differences(value, (actual as Record<string, unknown>)[key], at ? `${at}.${key}` : key),
    );
  }
  return isDeepStrictEqual(expected, actual) ? [] : [`${at}: expected ${show(expected)}, got ${show(actual)}`];
}

function grouped(entries: Array<{ key: string; value: unknown }>): Record<string, unknown[]> {
  const groups: Record<string, unknown[]> = {};
  for (const { key, value } of entries) (groups[key] ??= []).push(value);
  return groups;
}

/** The invoked children in flight in a snapshot, for an oracle to say "the calls go on". */
export function runningChildren(snapshot: Snapshot, background: string[] = []): string[] {
  return Object.entries(snapshot.children ?? {})
    .filter(
      ([id, child]) =>
        !background.includes(id) && (child as AnyActorRef | undefined)?.getSnapshot().status === 'active',
    )
    .map(([id]) => id)
    .sort();
}

function assertExpectation<V>(
  options: WalkOptions<V>,
  expectation: Expectation<V>,
  after: Snapshot,
  produced: WalkKit['log'],
  started: Array<{ id: string; input: unknown }>,
) {
  const problems = differences(expectation.view, options.view(after), 'view');
  const running = runningChildren(after, options.background);
  problems.push(...differences([...expectation.running].sort(), running, 'running'));
  problems.push(
    ...differences(expectation.started ?? {}, grouped(started.map((s) => ({ key: s.id, value: s.input }))), 'started'),
  );
  const startedIds = new Set(started.map((s) => s.id));
  for (const id of Object.keys(expectation.started ?? {})) startedIds.delete(id);
  if (startedIds.size) problems.push(`started: unexpected ${show([...startedIds])}`);
  const sent = grouped(produced.map((entry) => ({ key: entry.to, value: entry.event })));
  problems.push(...differences(expectation.sent ?? {}, sent, 'sent'));
  const extra = Object.keys(sent).filter((to) => !(to in (expectation.sent ?? {})));
  if (extra.length) problems.push(`sent: unexpected ${show(Object.fromEntries(extra.map((to) => [to, sent[to]])))}`);
  if ('output' in expectation) {
    if (after.status !== 'done')
      problems.push(`output: expected the machine to finish with ${show(expectation.output)}`);
    else problems.push(...differences(expectation.output, after.output, 'output'));
  } else if (after.status === 'done') {
    problems.push(`output: the machine finished with ${show(after.output)} but was expected to go on`);
  }
  if (problems.length)
    throw new Error(`the oracle disagrees (state ${show(after.value)}):\n  ${problems.join('\n  ')}`);
}

/* ---------- running one path against a real actor ---------- */

type Provided = ReturnType<typeof makeKit> & { machine: AnyStateMachine };
const provided = new WeakMap<object, Map<WalkVariant | undefined, Provided>>();

/**
 * The machine with the walk's fakes, made once for a walk's variant and its kit emptied before each
 * path: a provided machine rebuilds every state node and transition, which made a sixth of a walk's
 * time when it was made again for every path. The fakes reach the kit only through its methods and
 * fields, which each path finds empty.
 */
function providedFor(options: WalkBase, variant: WalkVariant | undefined): Provided {
  let byVariant = provided.get(options);
  if (!byVariant) provided.set(options, (byVariant = new Map()));
  let entry = byVariant.get(variant);
  if (!entry) {
    const made = makeKit();
    let machine = options.machine.provide(options.fakes(made.kit));
    if (variant?.provide) machine = machine.provide(variant.provide);
    entry = { ...made, machine };
    byVariant.set(variant, entry);
  }
  for (const id of Object.keys(entry.kit.inputs)) delete entry.kit.inputs[id];
  entry.kit.log.length = 0;
  entry.pending.clear();
  entry.starts.length = 0;
  return entry;
}

async function runPath<V>(
  options: WalkOptions<V> | UncheckedWalkOptions,
  variant: WalkVariant | undefined,
  events: EventObject[],
  seen: { states: Set<string>; transitions: Set<string> },
  nodes: AnyStateNode[],
  trace: Array<{ type: string; snapshot: Snapshot }> = [],
) {
  const { kit, pending, starts, machine } = providedFor(options, variant);
  const clock = new SimulatedClock();
  // Matched by logic, not by reference: the initial macrostep is inspected inside the actor's
  // constructor, before `createActor` has returned it.
  const inspect = (ev: InspectionEvent) => {
    if ((ev.actorRef as { logic?: unknown }).logic !== machine || ev.type !== '@xstate.microstep') return;
    const microstep = ev as InspectionEvent & { _transitions: AnyTransitionDefinition[] };
    for (const t of microstep._transitions) {
      seen.transitions.add(transitionKey(t));
      seen.states.add(t.source.id);
      for (const target of t.target ?? []) if (target.type === 'history') seen.states.add(target.id);
    }
    for (const id of activeNodeIds(ev.snapshot as Snapshot, nodes)) seen.states.add(id);
  };
  // A machine that reports to its parent runs under a recording parent, which owns the system
  // (and so the simulated clock and the inspection).
  const parent = options.parentActions?.length
    ? createActor(
        fromCallback(({ receive }) => receive((event) => kit.log.push({ to: 'parent', event }))),
        { clock, inspect },
      ).start()
    : undefined;
  const actor: AnyActorRef = parent
    ? createActor(machine, { input: variant?.input ?? options.input, parent } as never)
    : createActor(machine, { clock, inspect, input: variant?.input ?? options.input } as never);

  const trail: string[] = ['(start)'];
  const earlier: Array<{ event: WalkEvent; view: unknown }> = [];
  /** A chart that throws (an unknown state, a missing implementation) is wrong whatever the oracle says. */
  const assertAlive = () => {
    const snapshot = actor.getSnapshot();
    if (snapshot.status === 'error')
      throw new Error(`the machine failed: ${show((snapshot as { error?: unknown }).error)}`);
  };
  try {
    actor.start();
    await flush();
    assertAlive();
    trace.push({ type: '(start)', snapshot: actor.getSnapshot() });
    for (const id of activeNodeIds(actor.getSnapshot(), nodes)) seen.states.add(id);
    if (options.oracle && options.initial) {
      assertExpectation(options, options.initial(variant?.name), actor.getSnapshot(), kit.log.slice(), starts.slice());
    }
    for (const event of events) {
      trail.push(describeEvent(event));
      const before = actor.getSnapshot();
      const mark = kit.log.length;
      const startMark = starts.length;
      const view = options.oracle ? options.view(before) : undefined;
      const finished = replyOf(event.type);
      const unchanged = (): Expectation<V> => ({
        view: view as PartialView<V>,
        running: runningChildren(before, (options as WalkOptions<V>).background).filter((id) => id !== finished),
      });
      const expectation = options.oracle?.(
        {
          event: event as WalkEvent,
          view: view as V,
          before,
          inputs: kit.inputs,
          earlier: earlier.slice() as never,
          unchanged,
        },
        variant?.name,
      );
      earlier.push({ event: event as WalkEvent, view });
      if (options.oracle && !expectation)
        throw new Error(`the oracle has no expectation for ${describeEvent(event)} in ${show(before.value)}`);
      if (event.type.startsWith('xstate.done.actor.') || event.type.startsWith('xstate.error.actor.')) {
        const isDone = event.type.startsWith('xstate.done.actor.');
        const id = event.type.slice(isDone ? 'xstate.done.actor.'.length : 'xstate.error.actor.'.length);
        const running = pending.get(id);
        if (!running || !before.children[id]) throw new Error(`'${id}' is not running, so it cannot finish`);
        pending.delete(id);
        if (isDone) running.resolve((event as EventObject & { output?: unknown }).output);
        else running.reject((event as EventObject & { error?: unknown }).error ?? new Error('failed'));
      } else if (event.type.startsWith('xstate.after.')) {
        clock.increment(delayOf(machine, event.type, before));
      } else {
        actor.send(event);
      }
      await flush();
      assertAlive();
      const after = actor.getSnapshot();
      trace.push({ type: event.type, snapshot: after });
      for (const id of activeNodeIds(after, nodes)) seen.states.add(id);
      const produced = kit.log.slice(mark);
      if (options.oracle && expectation)
        assertExpectation(options, expectation, after, produced, starts.slice(startMark));
      options.check?.({ event, before, after, kit, produced });
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${options.name}${variant ? ` (${variant.name})` : ''}: ${message}\n  path: ${trail.join('\n     -> ')}`,
      { cause: error },
    );
  } finally {
    if (parent) parent.stop();
    else actor.stop();
  }
}

/* ---------- generating the paths ---------- */

function defaultSerialize(snapshot: Snapshot) {
  return JSON.stringify({ value: snapshot.value, context: snapshot.context });
}

/**
 * The config without `systemId`s. Path generation computes every transition in one shared mock
 * system that never stops actors, where a second registration of a system id would throw.
 */
function withoutSystemIds(config: unknown): unknown {
  if (Array.isArray(config)) return config.map(withoutSystemIds);
  if (!config || typeof config !== 'object') return config;
  return Object.fromEntries(
    Object.entries(config as Record<string, unknown>)
      .filter(([key]) => key !== 'systemId')
      .map(([key, value]) => [key, withoutSystemIds(value)]),
  );
}

function generatePaths(options: WalkBase, variant: WalkVariant | undefined) {
  const noOps = Object.fromEntries((options.parentActions ?? []).map((name) => [name, () => {}]));
  const source = options.machine;
  let logic = createMachine(withoutSystemIds(source.config) as never, source.implementations as never).provide({
    actions: noOps,
  }) as AnyStateMachine;
  if (variant?.provide) logic = logic.provide(variant.provide);
  const serializeState = variant?.serializeState ?? options.serializeState ?? defaultSerialize;
  const table = { ...options.events, ...variant?.events };
  // The events a state ignores are asked about once per state value (the first time the traversal
  // meets it), not once per context: what a chart ignores does not depend on its context.
  const askedIgnored = new Map<string, string>();
  const events = (snapshot: Snapshot): EventObject[] => {
    const types = new Set(snapshot._nodes.flatMap((node: AnyStateNode) => node.ownEvents) as string[]);
    const value = JSON.stringify(snapshot.value);
    const key = serializeState(snapshot);
    if (!askedIgnored.has(value)) askedIgnored.set(value, key);
    // A finished machine takes no more events: nothing to ask.
    if (options.askIgnored && snapshot.status === 'active' && askedIgnored.get(value) === key) {
      for (const type of Object.keys(table)) {
        const call = replyOf(type);
        if (call !== undefined ? snapshot.children[call] !== undefined : !type.startsWith('xstate.after.'))
          types.add(type);
      }
    }
    return [...types].flatMap((type) => (table[type] ?? [{ type }]) as EventObject[]);
  };
  if (variant?.routesOnly) {
    // Only searched for routes (`findRoute`), from its start: no traversal of its own.
    const [initial] = initialTransition(logic, variant.input ?? options.input) as [Snapshot, unknown];
    return {
      paths: [],
      simple: { total: 0, maximal: 0, complete: true },
      space: { logic, events, initial, serializeState },
    };
  }
  const traversal = {
    events,
    serializeState: (s: Snapshot) => serializeState(s),
    serializeEvent,
    input: variant?.input ?? options.input,
    limit: options.limit ?? 20_000,
  };
  const shortest = getShortestPaths(logic, traversal as never) as Array<StatePath<Snapshot, EventObject>>;
  const toState = new Map(shortest.map((path) => [serializeState(path.state), path]));
  const adjacency = getAdjacencyMap(logic, traversal as never);

  // Every transition out of every state, reached by the shortest path to that state.
  const paths: EventObject[][] = [];
  for (const [from, { transitions }] of Object.entries(adjacency)) {
    const prefix = toState.get(from);
    if (!prefix) continue;
    // Each step holds the state after its event; the first is the initial state itself.
    const steps = prefix.steps.filter((step) => step.event.type !== 'xstate.init').map((step) => step.event);
    for (const { event } of Object.values(transitions) as Array<{ event: EventObject }>) {
      paths.push([...steps, event]);
    }
  }
  // The regions of a parallel state are walked each on their own: a path over the product of their
  // states would be every interleaving, not a route a buyer takes.
  const projections = options.simplePathsOver ?? regionProjections(source.root);
  const initial = shortest[0]?.steps[0]?.state ?? null;
  const limit = options.simplePathLimit ?? 4000;
  const simple = { paths: [] as EventObject[][], total: 0, complete: true };
  for (const projection of projections) {
    const found = simplePaths(adjacency as never, initial, serializeState, projection, limit);
    simple.paths.push(...found.paths);
    simple.total += found.total;
    if (!found.complete) simple.complete = false;
  }
  paths.push(...simple.paths);
  // A path that is the beginning of a longer one adds nothing.
  const keyed = paths
    .map((steps) => ({ steps, key: steps.map((event) => serializeEvent(event)).join('\n') }))
    .sort((a, b) => b.steps.length - a.steps.length);
  const kept: typeof keyed = [];
  const prefixes = new Set<string>();
  for (const path of keyed) {
    if (prefixes.has(path.key)) continue;
    kept.push(path);
    const parts = path.key.split('\n');
    for (let i = 1; i <= parts.length; i++) prefixes.add(parts.slice(0, i).join('\n'));
  }
  return {
    paths: kept.map((p) => p.steps),
    simple: { total: simple.total, maximal: simple.paths.length, complete: simple.complete },
    space: { logic, events, initial, serializeState },
  };
}

/** The real machine as a walk's traversal sees it: its start, the events it offers, what tells states apart. */
interface StateSpace {
  logic: AnyStateMachine;
  events: (snapshot: Snapshot) => EventObject[];
  initial: Snapshot | null;
  serializeState: (snapshot: Snapshot) => string;
}

/** A chart path's key (`pathKey`) read back: the projection's index, its start and its moves. */
function readPathKey(key: string): { index: number; route: ChartRoute } {
  const [head, ...lines] = key.split('\n');
  const space = head!.indexOf(' ');
  return {
    index: Number(head!.slice(0, space)),
    route: {
      start: head!.slice(space + 1),
      moves: lines.map((line) => {
        const at = line.indexOf(' -> ');
        return { type: line.slice(0, at), to: line.slice(at + 4) };
      }),
    },
  };
}

type Frontier = Map<string, { snapshot: Snapshot; events: EventObject[] }>;

/**
 * A search of the real machine for chart routes over one projection: for a route, the events that
 * take the machine from its start through each move of the route in turn, with any steps between
 * them that keep the projected state. Each step is worked out from the state the one before led
 * to, so the events found take the machine there when walked. Null when no state the walk's
 * traversal can tell apart takes it (a guard that asks for what the route does not give). Routes
 * share their beginnings, so what each beginning reaches is worked out once.
 */
function routeSearch(
  space: StateSpace,
  over: (snapshot: Snapshot) => string,
): (route: ChartRoute) => EventObject[] | null {
  const { logic, events: offered, initial, serializeState } = space;
  const reached = new Map<string, { arrived: Frontier; closed: Frontier }>();
  /** The states reached and every state reached from them by steps that keep the projected state `here`. */
  const close = (arrived: Frontier, here: string): Frontier => {
    const closed: Frontier = new Map(arrived);
    const queue = [...arrived.values()];
    while (queue.length) {
      const { snapshot, events } = queue.shift()!;
      if (snapshot.status !== 'active') continue;
      for (const event of offered(snapshot)) {
        const [state] = transition(logic, snapshot, event) as [Snapshot, unknown];
        if (over(state) !== here) continue;
        const key = serializeState(state);
        if (closed.has(key)) continue;
        const step = { snapshot: state, events: [...events, event] };
        closed.set(key, step);
        queue.push(step);
      }
    }
    return closed;
  };
  const beginning = (route: ChartRoute, n: number): { arrived: Frontier; closed: Frontier } => {
    const key = JSON.stringify([route.start, route.moves.slice(0, n)]);
    const known = reached.get(key);
    if (known) return known;
    const arrived: Frontier = new Map();
    if (n === 0) {
      if (initial && over(initial) === route.start)
        arrived.set(serializeState(initial), { snapshot: initial, events: [] });
    } else {
      const move = route.moves[n - 1]!;
      for (const { snapshot, events } of beginning(route, n - 1).closed.values()) {
        if (snapshot.status !== 'active') continue;
        for (const event of offered(snapshot)) {
          if (event.type !== move.type) continue;
          const [state] = transition(logic, snapshot, event) as [Snapshot, unknown];
          const at = serializeState(state);
          if (over(state) === move.to && !arrived.has(at))
            arrived.set(at, { snapshot: state, events: [...events, event] });
        }
      }
    }
    const result = { arrived, closed: close(arrived, n === 0 ? route.start : route.moves[n - 1]!.to) };
    reached.set(key, result);
    return result;
  };
  return (route) => {
    const found = beginning(route, route.moves.length).arrived.values().next();
    return found.done ? null : found.value.events;
  };
}

/** A state value with, under the parallel state at `path`, only the region `region` kept. */
function keepRegion(value: unknown, path: readonly string[], region: string): unknown {
  if (!value || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  if (path.length === 0) return { [region]: record[region] };
  const [head, ...rest] = path;
  return head! in record ? { [head!]: keepRegion(record[head!], rest, region) } : value;
}

/** One projection of the state value per region of every parallel state; the value itself where there is none. */
function regionProjections(root: AnyStateNode): Array<(snapshot: Snapshot) => string> {
  const parallels = [root, ...allStateNodes(root)].filter((node) => node.type === 'parallel');
  if (!parallels.length) return [(snapshot) => JSON.stringify(snapshot.value)];
  return parallels.flatMap((node) =>
    Object.keys(node.states).map(
      (region) => (snapshot: Snapshot) => JSON.stringify(keepRegion(snapshot.value, node.path, region)),
    ),
  );
}

/**
 * Every simple path of the chart: a route that never comes back to a state value it has left (with
 * `over`, the projection of it that matters). Between two such moves the machine may take steps
 * that stay in its state and change only its context (a quantity, a field): the shortest of those
 * that leads to each way out is taken, so a route is one per way out (event and next state), and
 * every route is one the machine really takes, followed from the state the previous event led to.
 * Only the maximal ones are returned (the others are their beginnings); `complete` is false when
 * there are more than `limit` of them, and then none is returned.
 */
function simplePaths(
  adjacency: Record<string, { state: Snapshot; transitions: Record<string, { event: EventObject; state: Snapshot }> }>,
  initial: Snapshot | null,
  serializeState: (snapshot: Snapshot) => string,
  over: (snapshot: Snapshot) => string,
  limit: number,
): { paths: EventObject[][]; total: number; complete: boolean } {
  if (!initial) return { paths: [], total: 0, complete: true };
  const paths: EventObject[][] = [];
  let total = 0;
  const left = new Set<string>();
  const trail: EventObject[] = [];
  /** The ways out of the state `start` is in, each reached by the shortest steps that stay in it. */
  const waysOut = (start: Snapshot) => {
    const here = over(start);
    const found = new Map<string, { steps: EventObject[]; next: Snapshot }>();
    const seen = new Set([serializeState(start)]);
    const queue: Array<{ snapshot: Snapshot; steps: EventObject[] }> = [{ snapshot: start, steps: [] }];
    while (queue.length) {
      const { snapshot, steps } = queue.shift()!;
      for (const { event, state } of Object.values(adjacency[serializeState(snapshot)]?.transitions ?? {})) {
        const there = over(state);
        if (there === here) {
          const key = serializeState(state);
          if (!seen.has(key)) {
            seen.add(key);
            queue.push({ snapshot: state, steps: [...steps, event] });
          }
          continue;
        }
        const way = `${event.type} ${there}`;
        if (!found.has(way)) found.set(way, { steps: [...steps, event], next: state });
      }
    }
    return [...found.values()];
  };
  const visit = (snapshot: Snapshot): boolean => {
    const here = over(snapshot);
    left.add(here);
    let extended = false;
    for (const { steps, next } of waysOut(snapshot)) {
      if (left.has(over(next))) continue;
      extended = true;
      total++;
      trail.push(...steps);
      const ok = visit(next);
      trail.splice(trail.length - steps.length, steps.length);
      if (!ok) return false;
    }
    left.delete(here);
    if (!extended && trail.length) paths.push(trail.slice());
    return paths.length <= limit;
  };
  const complete = visit(initial);
  return complete ? { paths, total, complete } : { paths: [], total, complete };
}

/* ---------- the walk ---------- */

export async function walk<V>(options: WalkOptions<V>): Promise<WalkResult>;
/** @deprecated Pass `view` and `oracle`: a walk without an oracle cannot fail on a wrong chart. */
export async function walk(options: UncheckedWalkOptions): Promise<WalkResult>;
export async function walk<V>(options: WalkOptions<V> | UncheckedWalkOptions): Promise<WalkResult> {
  const nodes = allStateNodes(options.machine.root);
  const transitionKeys = allTransitions(options.machine.root);
  const seen = { states: new Set<string>(), transitions: new Set<string>() };
  let count = 0;
  let simpleTotal = 0;
  let simpleMaximal = 0;
  const traces: Array<Array<{ type: string; snapshot: Snapshot }>> = [];
  const variants: Array<WalkVariant | undefined> = options.variants?.length ? options.variants : [undefined];
  const spaces: Array<{ variant: WalkVariant | undefined; space: StateSpace }> = [];
  for (const variant of variants) {
    // With no transition to walk, the start alone is still checked.
    const { paths, simple, space } = generatePaths(options, variant);
    spaces.push({ variant, space });
    if (variant?.routesOnly) continue;
    simpleTotal += simple.total;
    simpleMaximal += simple.maximal;
    if (!simple.complete) {
      throw new Error(
        `${options.name}${variant ? ` (${variant.name})` : ''}: more than ${options.simplePathLimit ?? 4000} simple paths, so not all of ` +
          'them can be walked: give `simplePathsOver` what a route may not visit twice (a step, a region)',
      );
    }
    for (const steps of paths.length ? paths : [[]]) {
      const trace: Array<{ type: string; snapshot: Snapshot }> = [];
      await runPath(options, variant, steps, seen, nodes, trace);
      traces.push(trace);
      count++;
    }
  }
  for (const extra of options.extraPaths ?? []) {
    const variant = options.variants?.find((v) => v.name === extra.variant);
    const trace: Array<{ type: string; snapshot: Snapshot }> = [];
    await runPath(options, variant, extra.events, seen, nodes, trace);
    traces.push(trace);
    count++;
  }
  const chartPaths =
    options.paths === false
      ? undefined
      : await keepChartPaths(options, traces, spaces, async (variant, events) => {
          const trace: Array<{ type: string; snapshot: Snapshot }> = [];
          await runPath(options, variant, events, seen, nodes, trace);
          count++;
          return trace;
        });
  const stateIds = nodes.map((node) => node.id);
  const result: WalkResult = {
    name: options.name,
    paths: count,
    simplePaths: { total: simpleTotal, maximal: simpleMaximal },
    ...(chartPaths ? { chartPaths } : {}),
    states: {
      covered: stateIds.filter((id) => seen.states.has(id)).length,
      total: stateIds.length,
      missing: stateIds.filter((id) => !seen.states.has(id)),
    },
    transitions: {
      covered: transitionKeys.filter((key) => seen.transitions.has(key)).length,
      total: transitionKeys.length,
      missing: transitionKeys.filter((key) => !seen.transitions.has(key)),
    },
  };
  console.log(
    `${result.name}: states ${result.states.covered}/${result.states.total}, ` +
      `transitions ${result.transitions.covered}/${result.transitions.total}, ` +
      `simple paths ${result.simplePaths.total} (all walked) ` +
      `(${result.paths} paths walked)` +
      (chartPaths ? `; chart simple paths walked ${chartPaths.walked}/${chartPaths.bound}` : ''),
  );
  return result;
}

/* ---------- the chart's simple paths, kept in reports/paths.json ---------- */

const chartPathsWalked = new Map<string, Set<string>>();

/**
 * The chart's simple paths the walk took, added to the earlier walks of the machine in this file,
 * and checked against reports/paths.json (unless another walk of it follows).
 */
async function keepChartPaths(
  options: WalkBase,
  traces: Array<Array<{ type: string; snapshot: Snapshot }>>,
  spaces: Array<{ variant: WalkVariant | undefined; space: StateSpace }>,
  run: (
    variant: WalkVariant | undefined,
    events: EventObject[],
  ) => Promise<Array<{ type: string; snapshot: Snapshot }>>,
) {
  const settings = options.paths || {};
  const name = settings.name ?? options.machine.id;
  const graph = chartGraph(options.machine);
  const regions = chartRegions(options.machine);
  const over: Projection[] = options.simplePathsOver ?? regions;
  if (options.simplePathsOver) {
    if (!settings.merge)
      throw new Error(
        `${options.name}: say in \`paths.merge\` what \`simplePathsOver\` merges and why those states behave alike`,
      );
    for (const [i, projection] of over.entries()) {
      // A region's states are compared as the region sees them (a parallel chart has one projection per region).
      const unsafe = unsafeMerges(
        graph,
        projection,
        over.length === regions.length && regions.length > 1 ? regions[i] : undefined,
      );
      if (unsafe.length)
        throw new Error(
          `${options.name}: the projection merges states that behave differently: ${unsafe.slice(0, 5).join('; ')}`,
        );
    }
  }
  const all = chartSimplePaths(graph, regions);
  const bound = options.simplePathsOver ? chartSimplePaths(graph, over) : all;
  const walked = chartPathsWalked.get(name) ?? new Set<string>();
  chartPathsWalked.set(name, walked);
  for (const trace of traces) for (const key of walkedSimplePaths(trace, over)) walked.add(key);
  // Each chart path not walked yet is looked for among the real machine's states: walked if found.
  const searches = spaces.map(({ variant, space }) => ({
    variant,
    find: over.map((projection) => routeSearch(space, projection)),
  }));
  for (const key of [...bound.keys].filter((k) => !walked.has(k)).sort()) {
    if (walked.has(key)) continue;
    const { index, route } = readPathKey(key);
    for (const { variant, find } of searches) {
      const events = find[index]!(route);
      if (!events) continue;
      for (const k of walkedSimplePaths(await run(variant, events), over)) walked.add(k);
      if (!walked.has(key))
        throw new Error(`${options.name}: the route found for this chart path did not take it:\n${key}`);
      break;
    }
  }
  const outside = [...walked].filter((key) => !bound.keys.has(key));
  if (outside.length)
    throw new Error(
      `${options.name}: walked simple paths the chart does not have:\n${outside.slice(0, 3).join('\n---\n')}`,
    );
  let missing = [...bound.keys].filter((key) => !walked.has(key));
  // The paths stated unreachable: each group must hold paths, and none of them walked.
  const unreachable = (settings.unreachable ?? []).map(({ why, matches }) => ({
    why,
    keys: [...bound.keys].filter((key) => matches(readPathKey(key).route)),
  }));
  const stated = new Set(unreachable.flatMap((group) => group.keys));
  const lastWalk = !settings.follow;
  if (lastWalk) {
    for (const group of unreachable) {
      const taken = group.keys.filter((key) => walked.has(key));
      if (taken.length)
        throw new Error(
          `${options.name}: stated unreachable (${group.why}) but walked:\n${taken.slice(0, 3).join('\n---\n')}`,
        );
      if (!group.keys.length) throw new Error(`${options.name}: no chart path is stated unreachable by '${group.why}'`);
    }
    const unexplained = missing.filter((key) => !stated.has(key));
    // PATHS_MISSING=1 prints them all, to see what a walk lacks.
    if (process.env.PATHS_MISSING === '1' && unexplained.length) {
      console.log(`${name}: ${unexplained.length} simple paths not walked:\n${unexplained.join('\n---\n')}`);
    }
    if (unexplained.length) {
      throw new Error(
        `${options.name}: ${unexplained.length} simple paths of the chart no state of the walk takes; walk them (an event, a variant) ` +
          `or state in \`paths.unreachable\` why the machine cannot:\n${unexplained.slice(0, 3).join('\n---\n')}`,
      );
    }
    missing = unexplained;
  }
  const bounded = bound.keys.size - stated.size;
  const entry: PathsEntry = {
    chartPaths: all.complete ? all.keys.size : null,
    bound: bounded,
    projection: settings.merge ?? (over.length > 1 ? 'each region of the state value' : 'the state value'),
    ...(unreachable.length ? { unreachable: unreachable.map(({ why, keys }) => ({ why, paths: keys.length })) } : {}),
    walked: [...walked].filter((key) => !stated.has(key)).length,
  };
  if (!settings.follow && settings.keep !== false) keepPaths(name, entry);
  return { bound: entry.bound, walked: entry.walked, missing };
}
