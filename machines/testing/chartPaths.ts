/**
 * The simple paths of a chart itself, whatever its guards decide: what a walk of it must take.
 *
 * The chart is read as a graph of state values: every transition is a move, a guarded one as well as
 * the ones it would be tried before or after (each guard may answer yes or no, each time it is
 * asked, independently). Actions and context are left out (they decide nothing once guards are
 * free), calls and children wait, every delay may fire. The count is an upper bound of the routes a
 * buyer can take: a guard that depends on what an earlier step did may make some impossible.
 *
 * A simple path is counted as the walker counts it (`walk.ts`): over a projection of the state (the
 * state value by default, each region of a parallel state on its own), a route that never comes
 * back to a projected state it has left, each of its beginnings counted once; moves that keep the
 * projection are steps within the state.
 *
 * A projection may merge states, to bound a chart whose paths explode: `mergeIsSafe` checks that
 * every two states it merges behave alike (the same events lead to the same merged states), so the
 * merged chart has the same routes, each counted once.
 */
import {
  createMachine,
  initialTransition,
  transition,
  type AnyStateMachine,
  type AnyStateNode,
  type EventObject,
  type SnapshotFrom,
} from 'xstate';

type Snapshot = SnapshotFrom<AnyStateMachine>;

export type Projection = (snapshot: Snapshot) => string;

export interface ChartGraph {
  /** Each state (by its value), with its moves: the event and the state it leads to. */
  states: Map<string, { snapshot: Snapshot; moves: Array<{ event: EventObject; to: string }> }>;
  /** The states the chart may start in (an eventless transition at the start may decide). */
  initial: string[];
}

let picked = new Map<string, boolean>();
let asked: string[] = [];

const PICK = '__pick';

/** The config with every guard free, no actions, no context, and calls that wait. */
function freeConfig(config: unknown, path: string): unknown {
  if (Array.isArray(config)) return config.map((item, i) => freeConfig(item, `${path}.${i}`));
  if (!config || typeof config !== 'object') return config;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config as Record<string, unknown>)) {
    if (['actions', 'entry', 'exit', 'systemId', 'input', 'context', 'output'].includes(key)) continue;
    if (key === 'guard') {
      out.guard = { type: PICK, params: { key: path } };
      continue;
    }
    out[key] = freeConfig(value, `${path}.${key}`);
  }
  return out;
}

const waiting = {
  config: {},
  transition: (snapshot: unknown) => snapshot,
  getInitialSnapshot: () => ({ status: 'active', output: undefined, error: undefined }),
  getPersistedSnapshot: (snapshot: unknown) => snapshot,
};

function namesOf(config: unknown, key: string, found = new Set<string>()): Set<string> {
  if (Array.isArray(config)) for (const item of config) namesOf(item, key, found);
  else if (config && typeof config === 'object') {
    for (const [k, v] of Object.entries(config)) {
      if (k === key && typeof v === 'string') found.add(v);
      if (k === 'after' && key === 'after' && v && typeof v === 'object')
        for (const delay of Object.keys(v)) found.add(delay);
      namesOf(v, key, found);
    }
  }
  return found;
}

/** The chart with every guard answered by the current pick. */
export function freeMachine(machine: AnyStateMachine): AnyStateMachine {
  const config = freeConfig(machine.config, '') as Record<string, unknown>;
  const actors = Object.fromEntries([...namesOf(config, 'src')].map((name) => [name, waiting]));
  const delays = Object.fromEntries(
    [...namesOf(config, 'after')].filter((d) => Number.isNaN(Number(d))).map((name) => [name, 1]),
  );
  return createMachine(config as never, {
    actors: actors as never,
    delays,
    guards: {
      [PICK]: (_: unknown, params: { key: string }) => {
        asked.push(params.key);
        if (asked.length > 200) throw new Error('eventless transitions that never settle');
        return picked.get(params.key) ?? false;
      },
    } as never,
  });
}

/** Every outcome of `run` over every way its guards may answer. */
function outcomes(run: () => Snapshot): Snapshot[] {
  const found: Snapshot[] = [];
  const stack: Array<Map<string, boolean>> = [new Map()];
  while (stack.length) {
    const choice = stack.pop()!;
    picked = choice;
    asked = [];
    let snapshot: Snapshot;
    try {
      snapshot = run();
    } catch {
      continue;
    }
    const open = asked.find((key) => !choice.has(key));
    if (open === undefined) found.push(snapshot);
    else {
      stack.push(new Map([...choice, [open, false]]));
      stack.push(new Map([...choice, [open, true]]));
    }
  }
  picked = new Map();
  return found;
}

const key = (snapshot: Snapshot) => JSON.stringify([snapshot.value, snapshot.status]);

/** Every state value of the chart reachable with free guards, and its moves. */
export function chartGraph(machine: AnyStateMachine, limit = 20_000): ChartGraph {
  const free = freeMachine(machine);
  const states: ChartGraph['states'] = new Map();
  const starts = outcomes(() => initialTransition(free, undefined)[0] as Snapshot);
  const queue = [...starts];
  for (const s of starts) if (!states.has(key(s))) states.set(key(s), { snapshot: s, moves: [] });
  while (queue.length) {
    const snapshot = queue.shift()!;
    const entry = states.get(key(snapshot))!;
    if (snapshot.status !== 'active' || entry.moves.length) continue;
    const types = new Set<string>(
      (snapshot._nodes as AnyStateNode[])
        .flatMap((node) => node.ownEvents as string[])
        .filter(
          (type) => type !== '*' && !type.startsWith('xstate.done.state.') && !type.startsWith('xstate.error.state.'),
        ),
    );
    for (const type of types) {
      const event = { type };
      for (const next of outcomes(() => transition(free, snapshot, event)[0] as Snapshot)) {
        const to = key(next);
        entry.moves.push({ event, to });
        if (!states.has(to)) {
          if (states.size >= limit) throw new Error(`${machine.id}: more than ${limit} states`);
          states.set(to, { snapshot: next, moves: [] });
          queue.push(next);
        }
      }
    }
  }
  return { states, initial: [...new Set(starts.map(key))] };
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
export function regionProjections(machine: AnyStateMachine): Projection[] {
  const all: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    all.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  const parallels = all.filter((node) => node.type === 'parallel');
  if (!parallels.length) return [(snapshot) => JSON.stringify(snapshot.value)];
  return parallels.flatMap((node) =>
    Object.keys(node.states).map(
      (region) => (snapshot: Snapshot) => JSON.stringify(keepRegion(snapshot.value, node.path, region)),
    ),
  );
}

/** A simple path as text: its start, then each move's event and the (projected) state it leads to. */
export function pathKey(index: number, start: string, moves: Array<{ type: string; to: string }>): string {
  return [`${index} ${start}`, ...moves.map((m) => `${m.type} -> ${m.to}`)].join('\n');
}

/**
 * Every simple path of the graph over each projection, as keys (`pathKey`), each beginning once.
 * Over `limit` of them, counting stops and `complete` is false.
 */
export function chartSimplePaths(
  graph: ChartGraph,
  projections: Projection[],
  limit = 200_000,
): { keys: Set<string>; complete: boolean } {
  const keys = new Set<string>();
  let complete = true;
  projections.forEach((over, index) => {
    const projected = new Map([...graph.states].map(([k, { snapshot }]) => [k, over(snapshot)]));
    /** The ways out of a state: every move to another projected state, through moves that keep it. */
    const waysOut = (from: string) => {
      const here = projected.get(from)!;
      const found = new Map<string, { type: string; to: string; state: string }>();
      const seen = new Set([from]);
      const queue = [from];
      while (queue.length) {
        const at = queue.shift()!;
        for (const { event, to } of graph.states.get(at)!.moves) {
          const there = projected.get(to)!;
          if (there === here) {
            if (!seen.has(to)) {
              seen.add(to);
              queue.push(to);
            }
            continue;
          }
          const way = `${event.type} ${there}`;
          if (!found.has(way)) found.set(way, { type: event.type, to: there, state: to });
        }
      }
      return [...found.values()];
    };
    const memo = new Map<string, ReturnType<typeof waysOut>>();
    const ways = (from: string) => memo.get(from) ?? memo.set(from, waysOut(from)).get(from)!;
    for (const start of graph.initial) {
      const left = new Set<string>();
      const trail: Array<{ type: string; to: string }> = [];
      const first = projected.get(start)!;
      const visit = (state: string) => {
        if (!complete) return;
        left.add(projected.get(state)!);
        if (trail.length) keys.add(pathKey(index, first, trail));
        if (keys.size > limit) {
          complete = false;
          return;
        }
        for (const way of ways(state)) {
          if (left.has(way.to)) continue;
          trail.push({ type: way.type, to: way.to });
          visit(way.state);
          trail.pop();
        }
        left.delete(projected.get(state)!);
      };
      visit(start);
    }
  });
  return { keys, complete };
}

/**
 * The states a projection merges that do not behave alike: two states with the same projection
 * whose moves (event, merged state led to) differ. Empty when the merge is safe: then the merged
 * chart takes the same routes as the chart, each once.
 *
 * With `base` (the projection the merge is made from, such as one region of a parallel state), the
 * states are compared as `base` sees them: each state of `base` by all its moves together (whatever
 * the other regions are doing), and two merged ones must have the same.
 */
export function unsafeMerges(graph: ChartGraph, over: Projection, base?: Projection): string[] {
  const projected = new Map([...graph.states].map(([k, { snapshot }]) => [k, over(snapshot)]));
  const classOf = new Map([...graph.states].map(([k, { snapshot }]) => [k, base ? base(snapshot) : k]));
  const moves = new Map<string, Set<string>>();
  for (const [k, { moves: list }] of graph.states) {
    const c = classOf.get(k)!;
    const set = moves.get(c) ?? moves.set(c, new Set()).get(c)!;
    for (const { event, to } of list) set.add(`${event.type} -> ${projected.get(to)}`);
  }
  const behaviour = (c: string) => [...moves.get(c)!].sort().join('\n');
  const byProjection = new Map<string, { state: string; behaviour: string }>();
  const unsafe: string[] = [];
  for (const [k, c] of classOf) {
    if (byProjection.has(projected.get(k)!) && byProjection.get(projected.get(k)!)!.state === c) continue;
    const p = projected.get(k)!;
    const b = behaviour(c);
    const other = byProjection.get(p);
    if (!other) byProjection.set(p, { state: c, behaviour: b });
    else if (other.behaviour !== b) unsafe.push(`${other.state} and ${c} (as ${p})`);
  }
  return [...new Set(unsafe)];
}

/**
 * The simple paths a run took, as keys: the run's states projected, its moves to another projected
 * state, each beginning of it up to where it would come back to a state it left.
 */
export function walkedSimplePaths(
  trace: Array<{ type: string; snapshot: Snapshot }>,
  projections: Projection[],
): string[] {
  const keys: string[] = [];
  projections.forEach((over, index) => {
    const [start, ...steps] = trace;
    if (!start) return;
    let here = over(start.snapshot);
    const first = here;
    const left = new Set([here]);
    const moves: Array<{ type: string; to: string }> = [];
    for (const step of steps) {
      const there = over(step.snapshot);
      if (there === here) continue;
      if (left.has(there)) break;
      moves.push({ type: step.type, to: there });
      keys.push(pathKey(index, first, moves));
      left.add(there);
      here = there;
    }
  });
  return keys;
}
