import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { machineConfigText, mermaidDiagram } from './charts';
import { checkoutMachine } from './checkout/checkout.machine';
import { STEPS } from '../contract/steps';

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return (Object.values(node.states) as AnyStateNode[]).flatMap((child) => [child, ...allNodes(child)]);
}

describe('charts', () => {
  const diagram = mermaidDiagram(checkoutMachine);

  it('draws every state of the root machine', () => {
    for (const node of allNodes(checkoutMachine.root)) expect(diagram).toContain(node.path.join('__'));
  });

  it('draws one routing edge per step the rules can lead to, named by its guard', () => {
    for (const to of STEPS.filter((step) => step !== 'determining')) {
      const target = to === 'basket' ? 'basket' : `pastBasket__${to}`;
      expect(diagram).toContain(`routing --> ${target} : always [nextStepIs ${to}]`);
    }
  });

  it('shows named delays by name', () => {
    expect(diagram).toContain('basket__waiting --> basket__preparing : after reserveDelay');
  });

  it('gives the visualiser a config it can parse, with the step states by their spec names', () => {
    const config = JSON.parse(machineConfigText(checkoutMachine)) as { id: string; states: Record<string, unknown> };
    expect(config.id).toBe('checkout');
    expect(Object.keys((config.states.pastBasket as { states: object }).states)).toContain('ticket_questions_before');
  });
});
