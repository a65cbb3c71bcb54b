import { describe, expect, it } from 'vitest';
import type { AnyStateNode } from 'xstate';
import { machineConfigText, mermaidDiagram } from './charts';
import { checkoutMachine } from './checkout/checkout.machine';
import { NEXT_STEP_TARGETS } from './checkout/nextStep';

function allNodes(node: AnyStateNode): AnyStateNode[] {
  return (Object.values(node.states) as AnyStateNode[]).flatMap((child) => [child, ...allNodes(child)]);
}

describe('charts', () => {
  const diagram = mermaidDiagram(checkoutMachine);

  it('draws every state of the root machine', () => {
    for (const node of allNodes(checkoutMachine.root)) expect(diagram).toContain(node.path.join('__'));
  });

  it('draws one edge per next-step rule, named by its guard', () => {
    for (const [from, targets] of Object.entries(NEXT_STEP_TARGETS)) {
      for (const to of targets) {
        expect(diagram).toContain(
          `pastBasket__${from}__advancing --> pastBasket__${to} : done loadCheckout [isNextStep ${from} to ${to}]`,
        );
      }
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
