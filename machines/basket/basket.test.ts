import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, fromPromise, SimulatedClock, type EventObject } from 'xstate';
import { exactly, walk, type ChartRoute, type Expectation, type OracleQuestion, type WalkEvent } from '../testing/walk';
import { makeCheckout } from '../testing/checkoutFixture';
import { connectBasket, viewBasket, type BasketView } from './basket.connect';
import { basketMachine } from './basket.machine';

/** The spec's notifications (spec 000 §8), quoted here so the oracle does not read them from the chart. */
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
const DEBOUNCE = 'xstate.after.quantityDebounce.basket.editable.debouncing';

/**
 * A reference model of the basket, written from spec 000 §4-§5 without the chart: quantities wait
 * for 2000 ms of quiet and are then sent one line at a time in the order they changed; every other
 * change is sent at once; one call at a time; after each round the checkout is read afresh;
 * failures raise the spec's notification; a quantity below the minimum is held back with the
 * spec's warning; above the maximum it is capped, warned about and sent; refund protection shows
 * the buyer's choice at once and rolls back when the call fails.
 */
interface Model {
  call: string | null;
  input: unknown;
  /** How many calls have started, so a step that starts one is told from one that does not. */
  starts: number;
  /** The quiet-spell timer is running: quantities will be sent when it fires. */
  timer: boolean;
  pending: Record<number, number>;
  unsent: number[];
  blocked: number[];
  warnings: Record<number, string>;
  codeResult: 'applied' | 'invalid' | null;
  refund: boolean | null;
  notices: string[];
}

const initialModel = (): Model => ({
  call: null,
  input: undefined,
  starts: 0,
  timer: false,
  pending: {},
  unsent: [],
  blocked: [],
  warnings: {},
  codeResult: null,
  refund: null,
  notices: [],
});

function step(m: Model, event: WalkEvent): Model {
  const next: Model = structuredClone({ ...m, notices: [] });
  // One call at a time: while a change is with the server the basket's controls are held, and
  // what the buyer does meanwhile changes nothing.
  if (m.call !== null && !/^xstate\.(done|error)\.actor\./.test(event.type)) return next;
  const startCall = (call: string, input: unknown) => {
    next.call = call;
    next.input = input;
    next.starts++;
    next.timer = false;
  };
  const sendNextQuantity = () => {
    const id = next.unsent[0]!;
    startCall('updateTicketQuantity', { ticket_id: id, quantity: next.pending[id] });
  };
  const reload = () => startCall('loadCheckout', undefined);
  const settle = () => {
    next.call = null;
    next.input = undefined;
    next.refund = null;
    const keep = new Set([...next.unsent, ...next.blocked]);
    next.pending = Object.fromEntries(Object.entries(next.pending).filter(([id]) => keep.has(Number(id))));
    next.timer = next.unsent.length > 0;
  };
  const e = event as WalkEvent & Record<string, number | string | boolean>;
  switch (event.type) {
    case 'QUANTITY_CHANGED': {
      const id = e.ticketId as number;
      const qty = e.qty as number;
      const min = e.minPerCustomer as number;
      const max = e.maxCanReserve as number;
      next.unsent = next.unsent.filter((x) => x !== id);
      if (min > 1 && qty < min) {
        next.pending[id] = Math.max(1, qty);
        if (!next.blocked.includes(id)) next.blocked.push(id);
        next.warnings[id] = `You must purchase a minimum of ${min} tickets of this type`;
        return next;
      }
      next.blocked = next.blocked.filter((x) => x !== id);
      next.unsent.push(id);
      next.timer = true;
      if (max > 0 && qty > max) {
        next.pending[id] = max;
        next.warnings[id] = `You can only reserve ${max} tickets of this type`;
      } else {
        next.pending[id] = Math.max(1, Math.trunc(qty));
        delete next.warnings[id];
      }
      return next;
    }
    case DEBOUNCE:
      if (next.unsent.length > 0) sendNextQuantity();
      else next.timer = false;
      return next;
    case 'GIFT_VOUCHER_QUANTITY_CHANGED':
      startCall('updateGiftVoucherQuantity', {
        gift_voucher_id: e.giftVoucherId,
        qty: Math.max(1, Math.trunc(e.qty as number)),
        value: e.value,
      });
      return next;
    case 'TICKET_REMOVED': {
      const id = e.ticketId as number;
      delete next.pending[id];
      delete next.warnings[id];
      next.unsent = next.unsent.filter((x) => x !== id);
      next.blocked = next.blocked.filter((x) => x !== id);
      startCall('removeFromBasket', { ticket_id: id });
      return next;
    }
    case 'GIFT_VOUCHER_REMOVED':
      startCall('removeGiftVoucherFromBasket', { gift_voucher_id: e.giftVoucherId, value: e.value });
      return next;
    case 'REFUND_PROTECTION_CHOSEN':
      next.refund = e.refundProtection as boolean;
      startCall('updateRefundProtection', { refund_protection: e.refundProtection });
      return next;
    case 'CODE_SUBMITTED':
      startCall('setCode', { code: e.code });
      return next;
    case 'xstate.done.actor.updateTicketQuantity':
    case 'xstate.error.actor.updateTicketQuantity':
      next.unsent.shift();
      if (event.type.includes('error')) next.notices.push(failureText.updateTicketQuantity!);
      if (event.type.includes('done') && next.unsent.length > 0) sendNextQuantity();
      else reload();
      return next;
    case 'xstate.done.actor.loadCheckout':
      settle();
      return next;
    case 'xstate.error.actor.loadCheckout':
      settle();
      next.notices.push(failureText.loadCheckout!);
      return next;
  }
  const [, outcome, id] = /^xstate\.(done|error)\.actor\.(\w+)$/.exec(event.type) ?? [];
  if (!outcome || !id) throw new Error(`the basket model does not know ${event.type}`);
  if (id === 'setCode' && outcome === 'done') {
    next.codeResult = (event.output as { code_applied: boolean }).code_applied ? 'applied' : 'invalid';
  }
  if (outcome === 'error') {
    next.notices.push(failureText[id]!);
    if (id === 'updateRefundProtection') next.refund = null;
  }
  reload();
  return next;
}

function expectationOf(before: Model, after: Model): Expectation<BasketView> {
  const updating = after.call !== null;
  return {
    view: {
      isUpdating: updating,
      hasUnsavedChanges: updating || after.unsent.length > 0,
      pendingQty: exactly(after.pending),
      lineWarnings: exactly(after.warnings),
      minimumBlocked: after.blocked.length > 0,
      codeResult: after.codeResult,
      refundProtection: after.refund,
    },
    running: after.call ? [after.call] : [],
    started: after.starts > before.starts && after.call ? { [after.call]: [after.input] } : {},
    sent: after.notices.length
      ? { parent: after.notices.map((text) => ({ type: 'NOTICE_RAISED', kind: 'error', text })) }
      : {},
  };
}

function basketOracle({ event, earlier }: OracleQuestion<BasketView>): Expectation<BasketView> | undefined {
  const before = earlier.reduce((m, s) => step(m, s.event), initialModel());
  // The quiet-spell timer exists only while quantities wait; the model knows when that is.
  if (event.type.startsWith('xstate.after.') && !before.timer) return undefined;
  return expectationOf(before, step(before, event));
}

/**
 * Whether a chart route has a fresh read send quantities on when none can wait: the basket is idle
 * only with no quantity waiting (the page opens so, and the quiet spell or a read ends there only
 * when none is left), and a one-off change (a voucher, a removal, refund protection, a code) takes
 * no typed quantity while it is with the server. So after idle, a one-off change's read goes back
 * to idle; only after a quantity was typed (or one of several sent) may it go on to the quiet spell.
 */
function readAfterIdleFindsQuantities({ moves }: ChartRoute): boolean {
  let mayWait = false;
  for (const { type, to } of moves) {
    if (to === '{"editable":"debouncing"}' && type.endsWith('.loadCheckout') && !mayWait) return true;
    if (to === '{"editable":"idle"}') mayWait = false;
    else if (to === '{"editable":"debouncing"}' || to === '{"updating":"ticketQuantities"}') mayWait = true;
  }
  return false;
}

describe('basket machine', () => {
  it('is walked at 100 %: each step agrees with a reference model of the spec’s basket rules', async () => {
    const result = await walk<BasketView>({
      name: 'basket',
      machine: basketMachine,
      fakes: (kit) => ({
        actors: Object.fromEntries(Object.keys(failureText).map((id) => [id, kit.controlled()])),
      }),
      parentActions: ['notify'],
      askIgnored: true,
      serializeState: (s) =>
        JSON.stringify([
          s.value,
          // Which lines wait, not only how many: the walk then follows each line's own path.
          s.context.unsentIds,
          s.context.blockedIds,
          s.context.codeResult,
          s.context.refundProtection,
        ]),
      events: {
        QUANTITY_CHANGED: [
          { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 3, maxCanReserve: 0, minPerCustomer: 1 },
          { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 9, maxCanReserve: 5, minPerCustomer: 1 },
          { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 1, maxCanReserve: 0, minPerCustomer: 2 },
          { type: 'QUANTITY_CHANGED', ticketId: 3, qty: 2, maxCanReserve: 0, minPerCustomer: 1 },
        ],
        GIFT_VOUCHER_QUANTITY_CHANGED: [
          { type: 'GIFT_VOUCHER_QUANTITY_CHANGED', giftVoucherId: 7, qty: 2, value: 2500 },
        ],
        TICKET_REMOVED: [{ type: 'TICKET_REMOVED', ticketId: 1 }],
        GIFT_VOUCHER_REMOVED: [{ type: 'GIFT_VOUCHER_REMOVED', giftVoucherId: 7, value: 2500 }],
        REFUND_PROTECTION_CHOSEN: [
          { type: 'REFUND_PROTECTION_CHOSEN', refundProtection: true },
          { type: 'REFUND_PROTECTION_CHOSEN', refundProtection: false },
        ],
        CODE_SUBMITTED: [{ type: 'CODE_SUBMITTED', code: 'SUMMER' }],
        'xstate.done.actor.setCode': [
          done('setCode', { code_applied: true }),
          done('setCode', { code_applied: false }),
        ],
        'xstate.done.actor.loadCheckout': [done('loadCheckout', makeCheckout())],
        ...Object.fromEntries(
          [
            'updateTicketQuantity',
            'updateGiftVoucherQuantity',
            'updateRefundProtection',
            'removeFromBasket',
            'removeGiftVoucherFromBasket',
          ].map((id) => [`xstate.done.actor.${id}`, [done(id, { success: true })]]),
        ),
        ...Object.fromEntries(Object.keys(failureText).map((id) => [`xstate.error.actor.${id}`, [failed(id)]])),
      },
      view: (snapshot) => viewBasket(snapshot as never),
      initial: () => ({ view: viewBasket(undefined), running: [] }),
      oracle: basketOracle,
      paths: {
        unreachable: [
          {
            why: 'idle means no quantity waits, and a one-off change takes none while it is sent, so its read goes back to idle',
            matches: readAfterIdleFindsQuantities,
          },
        ],
      },
      extraPaths: [
        // The edges of the quantity rules: each typed value, then the quiet spell, so what is sent is checked.
        ...[
          { qty: 0, maxCanReserve: 0, minPerCustomer: 1 },
          { qty: 2.7, maxCanReserve: 0, minPerCustomer: 1 },
          { qty: 5, maxCanReserve: 5, minPerCustomer: 1 },
          { qty: 2, maxCanReserve: 0, minPerCustomer: 2 },
        ].map((line) => ({
          events: <WalkEvent[]>[{ type: 'QUANTITY_CHANGED', ticketId: 1, ...line }, { type: DEBOUNCE }],
        })),
        // A line removed while its quantity waits: the quantity is not sent after the removal.
        {
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 3, maxCanReserve: 0, minPerCustomer: 1 },
            { type: 'TICKET_REMOVED', ticketId: 1 },
            done('removeFromBasket', { success: true }),
            done('loadCheckout', makeCheckout()),
          ],
        },
        // A quantity the server refused is not sent again by itself: the buyer sees the server's figure.
        {
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 3, maxCanReserve: 0, minPerCustomer: 1 },
            { type: DEBOUNCE },
            failed('updateTicketQuantity'),
            done('loadCheckout', makeCheckout()),
          ],
        },
        // A line brought back above its minimum, then removed: reserving is no longer blocked by it.
        {
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 1, maxCanReserve: 0, minPerCustomer: 2 },
            { type: 'QUANTITY_CHANGED', ticketId: 3, qty: 1, maxCanReserve: 0, minPerCustomer: 2 },
            { type: 'TICKET_REMOVED', ticketId: 1 },
          ],
        },
        // Another line capped at its maximum or removed: the quantity already waiting is still sent, first.
        {
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 3, qty: 2, maxCanReserve: 0, minPerCustomer: 1 },
            { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 9, maxCanReserve: 5, minPerCustomer: 1 },
            { type: DEBOUNCE },
            done('updateTicketQuantity', { success: true }),
            done('updateTicketQuantity', { success: true }),
          ],
        },
        {
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 3, qty: 2, maxCanReserve: 0, minPerCustomer: 1 },
            { type: 'TICKET_REMOVED', ticketId: 1 },
            done('removeFromBasket', { success: true }),
            done('loadCheckout', makeCheckout()),
            { type: DEBOUNCE },
          ],
        },
        // A line held back below its minimum stays held back when another line is capped.
        {
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 3, qty: 1, maxCanReserve: 0, minPerCustomer: 2 },
            { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 9, maxCanReserve: 5, minPerCustomer: 1 },
          ],
        },
        // Held back below the minimum: nothing waits to be sent.
        {
          events: <WalkEvent[]>[{ type: 'QUANTITY_CHANGED', ticketId: 1, qty: 0, maxCanReserve: 0, minPerCustomer: 3 }],
        },
        ...[0, 2.5].map((qty) => ({
          events: <WalkEvent[]>[{ type: 'GIFT_VOUCHER_QUANTITY_CHANGED', giftVoucherId: 7, qty, value: 2500 }],
        })),
        {
          // A quantity typed, then a one-off change before the quiet spell ends: the quantity is still sent.
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 3, maxCanReserve: 0, minPerCustomer: 1 },
            { type: 'REFUND_PROTECTION_CHOSEN', refundProtection: true },
            done('updateRefundProtection', { success: true }),
            done('loadCheckout', makeCheckout()),
            { type: DEBOUNCE },
            done('updateTicketQuantity', { success: true }),
            done('loadCheckout', makeCheckout()),
          ],
        },
        {
          events: <WalkEvent[]>[
            { type: 'QUANTITY_CHANGED', ticketId: 1, qty: 3, maxCanReserve: 0, minPerCustomer: 1 },
            { type: 'CODE_SUBMITTED', code: 'SUMMER' },
            done('setCode', { code_applied: true }),
            failed('loadCheckout'),
            { type: DEBOUNCE },
          ],
        },
      ],
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
  const parent = createActor(
    fromCallback(({ receive }) => receive((e) => notices.push(e))),
    { clock },
  ).start();
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
    expect(viewBasket(actor.getSnapshot())).toMatchObject({
      isUpdating: false,
      hasUnsavedChanges: false,
      pendingQty: {},
    });
  });
});

describe('refund protection shows the buyer’s choice at once (optimistic)', () => {
  function basketWithRefundCall(result: () => Promise<{ success: true }>) {
    const notices: EventObject[] = [];
    const parent = createActor(fromCallback(({ receive }) => receive((e) => notices.push(e)))).start();
    let finish: () => void = () => {};
    const actor = createActor(
      basketMachine.provide({
        actors: {
          updateRefundProtection: fromPromise(() => new Promise<void>((r) => (finish = r)).then(result)),
          loadCheckout: fromPromise(async () => makeCheckout()),
        },
      }),
      { parent } as never,
    ).start();
    const basket = () => connectBasket(actor.getSnapshot(), (e) => actor.send(e));
    const flush = () => new Promise((r) => setTimeout(r, 0));
    return { basket, notices, finish: () => finish(), flush };
  }

  it('shows the choice while the server is told, then the server’s figures', async () => {
    const { basket, finish, flush, notices } = basketWithRefundCall(async () => ({ success: true }));
    basket().setRefundProtection(true);
    expect(basket()).toMatchObject({ refundProtection: true, isUpdating: true });
    finish();
    await flush();
    await flush();
    expect(basket()).toMatchObject({ refundProtection: null, isUpdating: false });
    expect(notices).toEqual([]);
  });

  it('rolls the choice back with the spec’s notification when the call fails', async () => {
    const { basket, finish, flush, notices } = basketWithRefundCall(async () => {
      throw new Error('500');
    });
    basket().setRefundProtection(false);
    expect(basket().refundProtection).toBe(false);
    finish();
    await flush();
    expect(basket().refundProtection).toBe(null);
    expect(notices).toEqual([
      { type: 'NOTICE_RAISED', kind: 'error', text: 'Unable to update Refund protection. Please try again later' },
    ]);
  });
});

describe('the basket’s senders (connect)', () => {
  it('show nothing pending before the basket chart runs, and send nothing without a chart to send to', () => {
    expect(viewBasket(undefined)).toEqual({
      isUpdating: false,
      hasUnsavedChanges: false,
      pendingQty: {},
      lineWarnings: {},
      minimumBlocked: false,
      codeResult: null,
      refundProtection: null,
    });
    const basket = connectBasket(undefined, undefined);
    expect(() => {
      basket.changeQuantity({ ticket_id: 4, max_can_reserve: 6, min_per_customer: 2 }, 3);
      basket.remove({ ticket_id: 4 });
      basket.changeVoucherQuantity({ id: 7, value: 2500 }, 2);
      basket.removeVoucher({ id: 7, value: 2500 });
      basket.setRefundProtection(true);
      basket.applyCode('SUMMER');
    }).not.toThrow();
  });

  it('build each event from the line, so screens never assemble them from server fields', () => {
    const sent: EventObject[] = [];
    const basket = connectBasket(undefined, (e) => sent.push(e));
    const line = { ticket_id: 4, max_can_reserve: 6, min_per_customer: 2 };
    const voucher = { id: 7, value: 2500 };
    basket.changeQuantity(line, 3);
    basket.remove(line);
    basket.changeVoucherQuantity(voucher, 2);
    basket.removeVoucher(voucher);
    basket.setRefundProtection(true);
    basket.applyCode('SUMMER');
    expect(sent).toEqual([
      { type: 'QUANTITY_CHANGED', ticketId: 4, qty: 3, maxCanReserve: 6, minPerCustomer: 2 },
      { type: 'TICKET_REMOVED', ticketId: 4 },
      { type: 'GIFT_VOUCHER_QUANTITY_CHANGED', giftVoucherId: 7, qty: 2, value: 2500 },
      { type: 'GIFT_VOUCHER_REMOVED', giftVoucherId: 7, value: 2500 },
      { type: 'REFUND_PROTECTION_CHOSEN', refundProtection: true },
      { type: 'CODE_SUBMITTED', code: 'SUMMER' },
    ]);
  });
});
