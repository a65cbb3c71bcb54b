import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock, type EventObject } from 'xstate';
import { walk } from '../testing/walk';
import { makeCheckout } from '../testing/checkoutFixture';
import { viewBasket } from './basket.connect';
import { basketMachine } from './basket.machine';

const failureText: Record<string, string> = {
  updateTicketQuantity: 'Unable to update Ticket quantity. Please try again later',
  updateGiftVoucherQuantity: 'Unable to update Gift Voucher quantity. Please try again later',
  updateRefundProtection: 'Unable to update Refund protection. Please try again later',
  setCode: 'Unable to set the Code. Please try again later',
  removeFromBasket: 'Unable to remove the Ticket from the basket. Please try again later',
  removeGiftVoucherFromBasket: 'Unable to remove the Gift Voucher from the basket. Please try again later',
  loadCheckout: 'Unable to get Checkout data. Please try again later',
};

const done = (id: string, output: unknown) => ({ type: `xstate.done.actor.${id}`, output });
const failed = (id: string) => ({ type: `xstate.error.actor.${id}`, error: new Error('500') });

describe('basket machine', () => {
  it('is walked at 100 %: each change goes to the server, failures give their notices', async () => {
    const result = await walk({
      name: 'basket',
      machine: basketMachine,
      fakes: (kit) => ({
        actors: Object.fromEntries(Object.keys(failureText).map((id) => [id, kit.controlled()])),
      }),
      parentActions: ['notify'],
      serializeState: (s) =>
        JSON.stringify([
          s.value,
          Math.min(s.context.unsentIds.length, 2),
          s.context.blockedIds.length > 0,
          s.context.codeResult,
        ]),
      events: {
        QUANTITY_CHANGED: [
          { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 3, maxCanReserve: 0, minPerCustomer: 1 },
          { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 9, maxCanReserve: 5, minPerCustomer: 1 },
          { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 1, maxCanReserve: 0, minPerCustomer: 2 },
          { type: 'QUANTITY_CHANGED', ticketId: 3, qty: 2, maxCanReserve: 0, minPerCustomer: 1 },
        ],
        GIFT_VOUCHER_QUANTITY_CHANGED: [{ type: 'GIFT_VOUCHER_QUANTITY_CHANGED', giftVoucherId: 7, qty: 2, value: 2500 }],
        TICKET_REMOVED: [{ type: 'TICKET_REMOVED', ticketId: 1 }],
        GIFT_VOUCHER_REMOVED: [{ type: 'GIFT_VOUCHER_REMOVED', giftVoucherId: 7, value: 2500 }],
        REFUND_PROTECTION_CHOSEN: [{ type: 'REFUND_PROTECTION_CHOSEN', refundProtection: true }],
        CODE_SUBMITTED: [{ type: 'CODE_SUBMITTED', code: 'SUMMER' }],
        'xstate.done.actor.setCode': [done('setCode', { code_applied: true }), done('setCode', { code_applied: false })],
        'xstate.done.actor.loadCheckout': [done('loadCheckout', makeCheckout())],
        ...Object.fromEntries(
          ['updateTicketQuantity', 'updateGiftVoucherQuantity', 'updateRefundProtection', 'removeFromBasket', 'removeGiftVoucherFromBasket'].map(
            (id) => [`xstate.done.actor.${id}`, [done(id, { success: true })]],
          ),
        ),
        ...Object.fromEntries(Object.keys(failureText).map((id) => [`xstate.error.actor.${id}`, [failed(id)]])),
      },
      check: ({ event, before, after, kit }) => {
        const view = viewBasket(after as never);
        expect(view.isUpdating).toBe(after.matches('updating') || after.matches('reloading'));
        if (event.type.startsWith('xstate.error.actor.')) {
          const id = event.type.slice('xstate.error.actor.'.length);
          expect(kit.log.filter((e) => e.to === 'parent').at(-1)?.event).toEqual({
            type: 'NOTICE_RAISED',
            kind: 'error',
            text: failureText[id],
          });
        }
        if (event.type === 'xstate.done.actor.setCode') {
          const applied = (event as unknown as { output: { code_applied: boolean } }).output.code_applied;
          expect(view.codeResult).toBe(applied ? 'applied' : 'invalid');
        }
        // Each quantity sent is the one the buyer typed for that line (capped at the maximum).
        if (after.matches({ updating: 'ticketQuantities' }) && !before.matches({ updating: 'ticketQuantities' })) {
          const sent = kit.inputs.updateTicketQuantity!.at(-1) as { ticket_id: number; quantity: number };
          expect(sent.quantity).toBe(before.context.pendingQty[sent.ticket_id]);
          expect(before.context.blockedIds).not.toContain(sent.ticket_id);
        }
        if (after.matches('editable') && before.matches('reloading')) {
          expect(view.pendingQty).toEqual(
            Object.fromEntries(
              Object.entries(before.context.pendingQty).filter(
                ([id]) => before.context.unsentIds.includes(Number(id)) || before.context.blockedIds.includes(Number(id)),
              ),
            ),
          );
        }
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });
});

/** A basket actor whose calls succeed at once, under a parent that records notices. */
function startBasket() {
  const clock = new SimulatedClock();
  const sent: Array<{ ticket_id: number; quantity: number }> = [];
  const notices: EventObject[] = [];
  const parent = createActor(fromCallback(({ receive }) => receive((e) => notices.push(e))), { clock }).start();
  const actor = createActor(
    basketMachine.provide({
      actors: {
        updateTicketQuantity: fromPromise(async ({ input }: { input: { ticket_id: number; quantity: number } }) => {
          sent.push(input);
          return { success: true as const };
        }),
        loadCheckout: fromPromise(async () => makeCheckout()),
      },
    }),
    { parent } as never,
  ).start();
  const flush = () => new Promise((r) => setTimeout(r, 0));
  return { actor, clock, sent, notices, flush };
}

describe('quantity rules (spec 000 §5 Basket)', () => {
  const change = (ticketId: number, qty: number, maxCanReserve = 0, minPerCustomer = 1) =>
    ({ type: 'QUANTITY_CHANGED', ticketId, qty, maxCanReserve, minPerCustomer }) as const;

  it('caps a quantity above max_can_reserve, warns, and sends the capped quantity', async () => {
    const { actor, clock, sent, flush } = startBasket();
    actor.send(change(4, 12, 6));
    expect(viewBasket(actor.getSnapshot()).lineWarnings[4]).toBe('You can only reserve 6 tickets of this type');
    expect(viewBasket(actor.getSnapshot()).pendingQty[4]).toBe(6);
    clock.increment(2000);
    await flush();
    expect(sent).toEqual([{ ticket_id: 4, quantity: 6 }]);
  });

  it('holds back a quantity below min_per_customer, warns, and blocks reserving until fixed', async () => {
    const { actor, clock, sent, flush } = startBasket();
    actor.send(change(5, 1, 0, 3));
    expect(viewBasket(actor.getSnapshot())).toMatchObject({
      minimumBlocked: true,
      lineWarnings: { 5: 'You must purchase a minimum of 3 tickets of this type' },
    });
    clock.increment(5000);
    await flush();
    expect(sent).toEqual([]);
    actor.send(change(5, 3, 0, 3));
    expect(viewBasket(actor.getSnapshot()).minimumBlocked).toBe(false);
    clock.increment(2000);
    await flush();
    expect(sent).toEqual([{ ticket_id: 5, quantity: 3 }]);
  });

  it('never sends a quantity below 1', async () => {
    const { actor, clock, sent, flush } = startBasket();
    actor.send(change(6, 0));
    clock.increment(2000);
    await flush();
    expect(sent).toEqual([{ ticket_id: 6, quantity: 1 }]);
  });

  it('waits 2000 ms after the last change, sending each changed line once, and disables inputs meanwhile', async () => {
    const { actor, clock, sent, flush } = startBasket();
    actor.send(change(1, 2));
    clock.increment(1500);
    actor.send(change(2, 3));
    clock.increment(1500);
    actor.send(change(1, 4));
    clock.increment(1999);
    expect(sent).toEqual([]);
    expect(viewBasket(actor.getSnapshot())).toMatchObject({ isUpdating: false, hasUnsavedChanges: true });
    clock.increment(1);
    expect(viewBasket(actor.getSnapshot()).isUpdating).toBe(true);
    await flush();
    await flush();
    expect(sent).toEqual([
      { ticket_id: 2, quantity: 3 },
      { ticket_id: 1, quantity: 4 },
    ]);
    expect(viewBasket(actor.getSnapshot())).toMatchObject({ isUpdating: false, hasUnsavedChanges: false, pendingQty: {} });
  });
});
