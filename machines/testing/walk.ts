/**
 * Model-based walking of a real chart. Paths come from the chart itself (`xstate/graph`): the
 * shortest path to every state, extended by every transition out of it, plus any explicit event
 * sequences. Each path then runs against a real actor of the machine with fake actors and a
 * simulated clock: actor completions are delivered by settling the fake that was really invoked,
 * `xstate.after.*` by advancing the clock. After every step the actor must be in the state the
 * model predicted. Coverage is measured on what the actors really did (every state node and
 * every transition of the definition), printed, and returned for the test to require 100 %.
 */
import {
  createActor,
  createMachine,
  fromCallback,
  fromPromise,
  SimulatedClock,
  type AnyActorRef,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
  type EventObject,
  type InspectionEvent,
  type SnapshotFrom,
} from 'xstate';
import { getAdjacencyMap, getShortestPaths, type StatePath } from 'xstate/graph';

type Snapshot = SnapshotFrom<AnyStateMachine>;

/** An event with its payload, e.g. `{ type: 'xstate.done.actor.loadCheckout', output }`. */
export type WalkEvent = { type: string } & Record<string, unknown>;

/** What every path run gets: controllable actors and logs of what the machine did. */
export interface WalkKit {
  /** A promise actor that stays pending until the walk delivers its done or error event. */
  controlled: <TOutput = unknown>() => ReturnType<typeof fromPromise<TOutput, any>>;
  /** A callback actor that records every event sent to it under `name`. */
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

export interface WalkVariant {
  name: string;
  /** Implementations for this variant (typically guards), on top of the fakes. */
  provide?: Parameters<AnyStateMachine['provide']>[0];
}

export interface WalkOptions {
  name: string;
  machine: AnyStateMachine;
  /** The fakes, rebuilt for each path so logs and pending actors never leak between paths. */
  fakes: (kit: WalkKit) => Parameters<AnyStateMachine['provide']>[0];
  /** Events to offer in each state, by type; types not listed are offered as `{ type }`. */
  events: Record<string, WalkEvent[]>;
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
  extraPaths?: Array<{ variant?: string; events: EventObject[] }>;
  /** Checks the meaning of each step (notices, events sent to children, ...). */
  check?: (step: StepCheck) => void;
  /** Upper bound for the traversal, to fail fast if the serialised state space explodes. */
  limit?: number;
}

export interface WalkResult {
  name: string;
  paths: number;
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
    t.eventType === '' ? source.always ?? [] : (source.transitions.get(t.eventType) ?? []);
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

function activeNodeIds(snapshot: Snapshot, nodes: AnyStateNode[]): string[] {
  return nodes
    .filter((node) => node.type !== 'history' && snapshot.matches(pathToValue(node.path) as never))
    .map((node) => node.id);
}

function pathToValue(path: string[]): unknown {
  if (path.length === 1) return path[0];
  return { [path[0]!]: pathToValue(path.slice(1)) };
}

/* ---------- running one path against a real actor ---------- */

const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

async function flush() {
  for (let i = 0; i < 5; i++) await settle();
}

function makeKit() {
  const pending = new Map<string, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  const kit: WalkKit = {
    inputs: {},
    log: [],
    controlled: () =>
      fromPromise(({ input, self }) => {
        (kit.inputs[self.id] ??= []).push(input);
        return new Promise((resolve, reject) => pending.set(self.id, { resolve, reject }));
      }) as never,
    recorder: (name) =>
      fromCallback(({ receive }) => {
        receive((event) => kit.log.push({ to: name, event }));
      }) as never,
    spy: (name) => (_args, params) => kit.log.push({ to: name, event: params ?? null }),
  };
  return { kit, pending };
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

function describeEvent(event: EventObject) {
  const { type, ...rest } = event as EventObject & Record<string, unknown>;
  const detail = Object.keys(rest).length ? ` ${JSON.stringify(rest).slice(0, 120)}` : '';
  return `${type}${detail}`;
}

async function runPath(
  options: WalkOptions,
  variant: WalkVariant | undefined,
  events: Array<{ event: EventObject; expected?: Snapshot }>,
  seen: { states: Set<string>; transitions: Set<string> },
  nodes: AnyStateNode[],
) {
  const { kit, pending } = makeKit();
  const fakes = options.fakes(kit);
  let machine = options.machine.provide(fakes);
  if (variant?.provide) machine = machine.provide(variant.provide);
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
    ? createActor(machine, { input: options.input, parent } as never)
    : createActor(machine, { clock, inspect, input: options.input } as never);
  actor.start();
  await flush();
  for (const id of activeNodeIds(actor.getSnapshot(), nodes)) seen.states.add(id);

  const trail: string[] = [];
  try {
    for (const { event, expected } of events) {
      trail.push(describeEvent(event));
      const before = actor.getSnapshot();
      const mark = kit.log.length;
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
      const after = actor.getSnapshot();
      for (const id of activeNodeIds(after, nodes)) seen.states.add(id);
      if (expected) {
        if (JSON.stringify(after.value) !== JSON.stringify(expected.value)) {
          throw new Error(
            `expected ${JSON.stringify(expected.value)} but the actor is in ${JSON.stringify(after.value)}`,
          );
        }
      }
      options.check?.({ event, before, after, kit, produced: kit.log.slice(mark) });
    }
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new Error(
      `${options.name}${variant ? ` (${variant.name})` : ''}: ${message}\n  path: ${trail.join('\n     -> ')}`,
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

function generatePaths(options: WalkOptions, variant: WalkVariant | undefined) {
  const noOps = Object.fromEntries((options.parentActions ?? []).map((name) => [name, () => {}]));
  const source = options.machine;
  let logic = createMachine(withoutSystemIds(source.config) as never, source.implementations as never).provide({
    actions: noOps,
  }) as AnyStateMachine;
  if (variant?.provide) logic = logic.provide(variant.provide);
  const serializeState = options.serializeState ?? defaultSerialize;
  const events = (snapshot: Snapshot): EventObject[] => {
    const types = [...new Set(snapshot._nodes.flatMap((node: AnyStateNode) => node.ownEvents))] as string[];
    return types.flatMap((type) => (options.events[type] ?? [{ type }]) as EventObject[]);
  };
  const traversal = {
    events,
    serializeState: (s: Snapshot) => serializeState(s),
    input: options.input,
    limit: options.limit ?? 20_000,
  };
  const shortest = getShortestPaths(logic, traversal as never) as Array<StatePath<Snapshot, EventObject>>;
  const toState = new Map(shortest.map((path) => [serializeState(path.state), path]));
  const adjacency = getAdjacencyMap(logic, traversal as never);

  // Every transition out of every state, reached by the shortest path to that state.
  const paths: Array<Array<{ event: EventObject; expected: Snapshot }>> = [];
  for (const [from, { transitions }] of Object.entries(adjacency)) {
    const prefix = toState.get(from);
    if (!prefix) continue;
    // Each step holds the state after its event; the first is the initial state itself.
    const steps = prefix.steps
      .filter((step) => step.event.type !== 'xstate.init')
      .map((step) => ({ event: step.event, expected: step.state as Snapshot }));
    for (const { event, state } of Object.values(transitions) as Array<{ event: EventObject; state: Snapshot }>) {
      paths.push([...steps, { event, expected: state }]);
    }
  }
  // A path that is the beginning of a longer one adds nothing.
  const keyed = paths
    .map((steps) => ({ steps, key: steps.map((s) => JSON.stringify(s.event)).join('\n') }))
    .sort((a, b) => b.steps.length - a.steps.length);
  const kept: typeof keyed = [];
  const prefixes = new Set<string>();
  for (const path of keyed) {
    if (prefixes.has(path.key)) continue;
    kept.push(path);
    const parts = path.key.split('\n');
    for (let i = 1; i <= parts.length; i++) prefixes.add(parts.slice(0, i).join('\n'));
  }
  return kept.map((p) => p.steps);
}

/* ---------- the walk ---------- */

export async function walk(options: WalkOptions): Promise<WalkResult> {
  const nodes = allStateNodes(options.machine.root);
  const transitionKeys = allTransitions(options.machine.root);
  const seen = { states: new Set<string>(), transitions: new Set<string>() };
  let count = 0;
  const variants: Array<WalkVariant | undefined> = options.variants?.length ? options.variants : [undefined];
  for (const variant of variants) {
    for (const steps of generatePaths(options, variant)) {
      await runPath(options, variant, steps, seen, nodes);
      count++;
    }
  }
  for (const extra of options.extraPaths ?? []) {
    const variant = options.variants?.find((v) => v.name === extra.variant);
    await runPath(options, variant, extra.events.map((event) => ({ event })), seen, nodes);
    count++;
  }
  const stateIds = nodes.map((node) => node.id);
  const result: WalkResult = {
    name: options.name,
    paths: count,
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
      `transitions ${result.transitions.covered}/${result.transitions.total} (${result.paths} paths)`,
  );
  return result;
}
