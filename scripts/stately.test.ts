import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  createActor,
  createMachine,
  type AnyStateMachine,
  type AnyStateNode,
  type AnyTransitionDefinition,
} from 'xstate';
import { getAdjacencyMap } from 'xstate/graph';
import { checkoutMachine } from '../machines/checkout/checkout.machine';
import { allCharts } from './charts';
import { readPaths } from '../machines/testing/paths';
import { CONTEXT_DELAYS, delayValue, namesUsed, spawnedBy, statelyFiles } from './stately';

const machines: AnyStateMachine[] = (await allCharts()).map((chart) => chart.machine);
const files = statelyFiles(machines);

/** The charts by their files: `machines/<folder>/<id>.machine.ts`, each a chart whose id is its name. */
function chartFiles(): string[] {
  return readdirSync('machines', { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.machine.ts'))
    .map((file) => file.split('/').pop()!.replace('.machine.ts', ''));
}

function nodesOf(machine: AnyStateMachine): AnyStateNode[] {
  const nodes: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    nodes.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  return nodes;
}

/** A guard as QA reads it: its name, and its params when they are fixed (params computed from the event are left out of the export). */
function guardKey(guard: unknown): string {
  if (!guard) return '';
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return `inline ${guard.name}`;
  const { type, params } = guard as { type: string; params?: unknown };
  return params && typeof params === 'object' ? `${type} ${JSON.stringify(params)}` : type;
}

/** A delay as the chart runs it: its name and, for a named one, its value in ms. */
function delayKey(machine: AnyStateMachine, t: AnyTransitionDefinition, delayOf: (name: string) => number): string {
  if (!t.eventType.startsWith('xstate.after.')) return '';
  const name = t.eventType.slice('xstate.after.'.length).split('.')[0]!;
  return Number.isNaN(Number(name)) ? `${name}=${delayOf(name)}` : name;
}

/** Every state node, and every transition with its guard, targets and delay: what Stately draws and what decides. */
function shape(machine: AnyStateMachine, delayOf: (name: string) => number) {
  const nodes = nodesOf(machine);
  const transitions = nodes.flatMap((node) =>
    [...node.transitions.values(), node.always ?? []]
      .flat()
      .map(
        (t: AnyTransitionDefinition, index) =>
          `${node.id} ${t.eventType || 'always'} #${index} [${guardKey(t.guard)}] ${delayKey(machine, t, delayOf)} -> ${(
            t.target ?? []
          )
            .map((target: AnyStateNode) => target.id)
            .join(',')}`,
      ),
  );
  return { states: nodes.map((node) => `${node.id} ${node.type}`), transitions: transitions.sort() };
}

/** What the editor does with a pasted file: run its createMachine calls (the file is plain JavaScript besides its import). */
function open(text: string): Record<string, AnyStateMachine> {
  const script = text.replace(/^import .*$/m, '').replace(/export const (\w+) = /g, 'exports.$1 = ');
  const exports: Record<string, AnyStateMachine> = {};
  new Function('createMachine', 'exports', script)(createMachine, exports);
  return exports;
}

const opened = open(files.get('all.stately.ts')!);

/** Every event the chart names, done and error events of its calls and its delays included. */
function eventTypes(machine: AnyStateMachine): string[] {
  return [...new Set(nodesOf(machine).flatMap((node) => [...node.transitions.keys()]))];
}

describe('the files for the Stately editor', () => {
  it('hold each machine (one per chart file in machines/), and all of them in one file, as createMachine calls of their own config', () => {
    expect(machines.map((m) => m.id).sort()).toEqual(chartFiles().sort());
    expect([...files.keys()]).toEqual([...machines.map((m) => `${m.id}.stately.ts`), 'all.stately.ts']);
    for (const machine of machines) {
      expect(Object.keys(open(files.get(`${machine.id}.stately.ts`)!))).toEqual([`${machine.id}Machine`]);
    }
  });

  describe.each(machines.map((machine) => [machine.id, machine] as const))(
    '%s, read back from the generated file',
    (id, machine) => {
      const exported = () => opened[`${id}Machine`]!;

      it('has the same states, transitions, guards and delays as the machine', () => {
        const real = (machine.implementations.delays ?? {}) as Record<string, unknown>;
        const realDelay = (name: string) =>
          typeof real[name] === 'number' ? (real[name] as number) : delayValue(machine, name);
        const exportedDelay = (name: string) => (exported().implementations.delays as Record<string, number>)[name]!;
        expect(shape(exported(), exportedDelay)).toEqual(shape(machine, realDelay));
        for (const [name, value] of Object.entries(real)) {
          if (typeof value === 'number') expect(exportedDelay(name), `${id} delay ${name}`).toBe(value);
          else expect(exportedDelay(name), `${id} delay ${name}`).toBeGreaterThan(0);
        }
      });

      it('names every guard and implements every name it uses', () => {
        const used = namesUsed(exported().config);
        const implemented = exported().implementations as unknown as Record<string, Record<string, unknown>>;
        for (const kind of ['guards', 'actions', 'actors', 'delays'] as const) {
          for (const name of used[kind]) expect(implemented[kind]?.[name], `${id}: ${kind} ${name}`).toBeDefined();
        }
        for (const node of nodesOf(machine)) {
          for (const t of [...node.transitions.values(), node.always ?? []].flat()) {
            expect(typeof t.guard, `${node.id} ${t.eventType}`).not.toBe('function');
          }
        }
      });

      it('starts bare and takes every event it names without a missing implementation', () => {
        const actor = createActor(exported());
        const errors: unknown[] = [];
        actor.subscribe({ error: (error) => errors.push(error) });
        actor.start();
        expect(actor.getSnapshot().status).not.toBe('error');
        actor.stop();
        const events = eventTypes(machine).map((type) => ({ type }));
        // Every state reachable bare (guards answering no), each given every event the chart names.
        // (Without system ids: the traversal keeps every actor it makes in one system.)
        const bare = createMachine(withoutSystemIds(exported().config) as never, exported().implementations as never);
        const map = getAdjacencyMap(bare, {
          events: events as never,
          serializeState: (s: { value: unknown }) => JSON.stringify(s.value),
          limit: 5000,
        } as never);
        expect(Object.keys(map).length).toBeGreaterThan(0);
        expect(errors).toEqual([]);
        for (const { state } of Object.values(map) as Array<{ state: { status: string; error?: unknown } }>) {
          expect(state.status, show(state.error)).not.toBe('error');
        }
      });
    },
  );

  it("show the root's spawned children where they start: the step saver at the start, the hold's clock with the first hold", () => {
    const actions = checkoutMachine.implementations.actions as Record<string, unknown>;
    expect(spawnedBy(actions.spawnStepSaver)).toEqual([{ src: 'stepSaver', id: 'stepSaver', systemId: 'stepSaver' }]);
    expect(spawnedBy(actions.startClock)).toEqual([{ src: 'countdown', id: 'countdown' }]);
    const root = opened.checkoutMachine!;
    expect(root.config.entry).toEqual([
      { type: 'spawnStepSaver', params: { spawns: 'stepSaver', id: 'stepSaver', systemId: 'stepSaver' } },
    ]);
    expect(files.get('checkout.stately.ts')!.match(/"spawns": "countdown"/g)?.length).toBe(
      JSON.stringify(checkoutMachine.config).match(/"startClock"/g)?.length,
    );
  });

  it('keeps a context-computed delay at a stated value only where the starting context has none', () => {
    for (const [id, delays] of Object.entries(CONTEXT_DELAYS)) {
      const machine = machines.find((m) => m.id === id)!;
      for (const name of Object.keys(delays))
        expect(typeof (machine.implementations.delays as Record<string, unknown>)[name]).toBe('function');
    }
  });

  it('give the stand-in for calls and child charts only to a machine that runs one', () => {
    const still = createMachine({
      id: 'still',
      initial: 'shown',
      states: { shown: { on: { NEXT: 'done' } }, done: {} },
    });
    const calling = createMachine({ id: 'calling', initial: 'asking', states: { asking: { invoke: { src: 'ask' } } } });
    const made = statelyFiles([calling, still]);
    expect(made.get('still.stately.ts')).not.toContain('const waiting');
    expect(made.get('calling.stately.ts')).toContain('const waiting');
  });

  it('are the ones in the repository (npm run charts writes them; charts:check fails on a stale one)', () => {
    for (const [name, text] of files) {
      expect(readFileSync(new URL(`../statecharts/${name}`, import.meta.url), 'utf8'), name).toBe(text);
    }
  });
});

function withoutSystemIds(config: unknown): unknown {
  if (Array.isArray(config)) return config.map(withoutSystemIds);
  if (!config || typeof config !== 'object') return config;
  return Object.fromEntries(
    Object.entries(config)
      .filter(([key]) => key !== 'systemId')
      .map(([key, value]) => [key, withoutSystemIds(value)]),
  );
}

function show(value: unknown): string {
  return value instanceof Error ? value.message : (JSON.stringify(value) ?? '');
}

describe('reports/paths.json (written and checked by the walks)', () => {
  it('keeps every machine: its chart’s simple paths, the bound its walk must take, and how many it took', () => {
    const kept = readPaths();
    expect(Object.keys(kept).sort()).toEqual(machines.map((machine) => machine.id).sort());
    for (const [name, entry] of Object.entries(kept)) {
      expect(entry.walked, name).toBeGreaterThan(0);
      expect(entry.walked, name).toBeLessThanOrEqual(entry.bound);
      // Over the chart's own states, the bound is the chart's count less the paths stated impossible
      // (each group with its reason); a projection of its own states why its count differs.
      const impossible = (entry.unreachable ?? []).reduce((sum, group) => sum + group.paths, 0);
      if (entry.projection === 'the state value' || entry.projection === 'each region of the state value')
        expect(entry.bound + impossible, name).toBe(entry.chartPaths);
    }
  });
});
