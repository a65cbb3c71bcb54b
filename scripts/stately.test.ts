import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { checkoutMachine } from '../machines/checkout/checkout.machine';
import { countdownMachine } from '../machines/countdown/countdown.machine';
import { orderCompletedMachine } from '../machines/orderCompleted/orderCompleted.machine';
import { statelyFiles } from './stately';

/** Every state node's id and every transition as `source event -> targets`: the shape Stately draws. */
function shape(machine: AnyStateMachine) {
  const nodes: AnyStateNode[] = [];
  const visit = (node: AnyStateNode) => {
    nodes.push(node);
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  const transitions = nodes.flatMap((node) =>
    [...node.transitions.values(), node.always ?? []].flat().map(
      (t) => `${node.id} ${t.eventType || 'always'} -> ${(t.target ?? []).map((target: AnyStateNode) => target.id).join(',')}`,
    ),
  );
  return { states: nodes.map((node) => node.id), transitions: transitions.sort() };
}

describe('the files for the Stately editor', () => {
  const machines = [checkoutMachine, countdownMachine, orderCompletedMachine];
  const files = statelyFiles(machines);

  it('hold each machine, and all of them in one file, as createMachine calls of their own config', () => {
    expect([...files.keys()]).toEqual(['checkout.stately.ts', 'countdown.stately.ts', 'orderCompleted.stately.ts', 'all.stately.ts']);
    expect(files.get('all.stately.ts')).toContain('export const checkoutMachine = createMachine(');
    expect(files.get('all.stately.ts')).toContain('export const orderCompletedMachine = createMachine(');
  });

  it('open as the same machines: every state and transition, read back by XState from the generated file', async () => {
    // What the editor does with a pasted file: run its createMachine calls.
    const { createMachine } = await import('xstate');
    const text = files.get('all.stately.ts')!.replace(/^import .*$/m, '').replace(/export const (\w+) = /g, 'exports.$1 = ');
    const exports: Record<string, AnyStateMachine> = {};
    new Function('createMachine', 'exports', text)(createMachine, exports);
    for (const machine of machines) {
      const opened = exports[`${machine.id}Machine`];
      expect(opened, machine.id).toBeDefined();
      expect(shape(opened!)).toEqual(shape(machine));
    }
  });

  it('are the ones in the repository (npm run charts writes them; charts:check fails on a stale one)', () => {
    const committed = readFileSync(new URL('../statecharts/countdown.stately.ts', import.meta.url), 'utf8');
    expect(committed).toBe(files.get('countdown.stately.ts'));
  });
});
