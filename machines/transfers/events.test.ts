/**
 * The transfers chart taking the buyer's events one by one: an event addressed to no ticket or no
 * row changes nothing, a section opens and closes, removing the row that was pointed out stops
 * pointing at it, and a failed send shows the words it failed with.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import type { RequestOf, ResponseOf } from '../../contract';
import { transfersMachine, type TransfersEvent } from './transfers.machine';

const ADULT = { ticket_id: 21, event_name: 'Ashcombe Lantern Trail', ticket_name: 'Adult', qty: 3 };
const TODAY = { year: 2026, month: 6, day: 1 };

function started(send: () => Promise<ResponseOf<'setTransfers'>> = () => new Promise(() => undefined)) {
  const actor = createActor(
    transfersMachine.provide({
      actors: { setTransfers: fromPromise<ResponseOf<'setTransfers'>, RequestOf<'setTransfers'>>(send) },
    }),
    { input: { tickets: [ADULT], today: TODAY } },
  ).start();
  return actor;
}

describe('transfers machine: events one by one', () => {
  it('changes nothing for a ticket or a row that is not there', () => {
    const actor = started();
    actor.send({ type: 'ROW_ADDED', ticketId: 21 });
    const before = actor.getSnapshot().context;
    const strays: TransfersEvent[] = [
      { type: 'SECTION_TOGGLED', ticketId: 99 },
      { type: 'ROW_ADDED', ticketId: 99 },
      { type: 'QTY_INCREASED', ticketId: 21, index: 5 },
      { type: 'QTY_INCREASED', ticketId: 99, index: 0 },
      { type: 'QTY_DECREASED', ticketId: 21, index: 5 },
      { type: 'ROW_REMOVED', ticketId: 21, index: 5 },
      { type: 'GIFT_TOGGLED', ticketId: 21, index: 5 },
      { type: 'FIELD_CHANGED', ticketId: 21, index: 5, field: 'name', value: 'Ada' },
      { type: 'DELIVERY_CHOSEN', ticketId: 21, index: 5, choice: 'Send now' },
      { type: 'DELIVERY_CHOSEN', ticketId: 21, index: 1, choice: 'Later' as never },
    ];
    for (const event of strays) {
      actor.send(event);
      expect(actor.getSnapshot().context, event.type).toEqual(before);
    }
  });

  it('opens a section and closes it again', () => {
    const actor = started();
    actor.send({ type: 'SECTION_TOGGLED', ticketId: 21 });
    expect(actor.getSnapshot().context.open).toEqual([21]);
    actor.send({ type: 'SECTION_TOGGLED', ticketId: 21 });
    expect(actor.getSnapshot().context.open).toEqual([]);
  });

  it('changes the addressed row: its quantity both ways, its gift, its delivery and a field', () => {
    const actor = started();
    actor.send({ type: 'QTY_INCREASED', ticketId: 21, index: 0 });
    actor.send({ type: 'QTY_INCREASED', ticketId: 21, index: 0 });
    actor.send({ type: 'QTY_DECREASED', ticketId: 21, index: 0 });
    actor.send({ type: 'GIFT_TOGGLED', ticketId: 21, index: 0 });
    actor.send({ type: 'DELIVERY_CHOSEN', ticketId: 21, index: 0, choice: 'Send now' });
    actor.send({ type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'name', value: 'Ada Lovelace' });
    expect(actor.getSnapshot().context.rows[0]).toMatchObject({
      qty: 1,
      is_gift: true,
      send_gift: 'Send now',
      name: 'Ada Lovelace',
    });
  });

  it('stops pointing at a row once it is removed, and keeps pointing at another', () => {
    const actor = started();
    actor.send({ type: 'QTY_INCREASED', ticketId: 21, index: 0 });
    actor.send({ type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'name', value: 'Ada Lovelace' });
    actor.send({ type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'email', value: 'ada@example.test' });
    actor.send({ type: 'ROW_ADDED', ticketId: 21 });
    actor.send({ type: 'ROW_ADDED', ticketId: 21 });
    // The second row (quantity 1, no name) is the first invalid one.
    actor.send({ type: 'SEND_CLICKED' });
    const pointed = actor.getSnapshot().context.pointedOut;
    expect(pointed).toBe(actor.getSnapshot().context.rows[1]!.key);
    actor.send({ type: 'ROW_REMOVED', ticketId: 21, index: 2 });
    expect(actor.getSnapshot().context.pointedOut).toBe(pointed);
    actor.send({ type: 'ROW_REMOVED', ticketId: 21, index: 1 });
    expect(actor.getSnapshot().context.pointedOut).toBeNull();
  });

  it('shows the words a send failed with, or the spec’s words when it has none', async () => {
    for (const [error, shown] of [
      [new Error('Only 1 Adult ticket is left to transfer.'), 'Only 1 Adult ticket is left to transfer.'],
      [new Error(''), 'Unable to send tickets. Please try again later'],
      ['not an error', 'Unable to send tickets. Please try again later'],
    ] as const) {
      const actor = started(() => Promise.reject(error));
      actor.send({ type: 'QTY_INCREASED', ticketId: 21, index: 0 });
      actor.send({ type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'name', value: 'Ada Lovelace' });
      actor.send({ type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'email', value: 'ada@example.test' });
      actor.send({ type: 'SEND_CLICKED' });
      await new Promise((resolve) => setTimeout(resolve, 0));
      expect(actor.getSnapshot().value).toBe('editing');
      expect(actor.getSnapshot().context.problem).toBe(shown);
    }
  });
});

describe('transfers machine: what the app must provide', () => {
  it('names the call it was not given, when it sends', async () => {
    const errors: string[] = [];
    const actor = createActor(transfersMachine, {
      input: { tickets: [ADULT], today: TODAY },
      inspect: (e) => {
        const event = (e as { event?: { type: string; error?: unknown } }).event;
        if (e.type === '@xstate.event' && event?.type === 'xstate.error.actor.setTransfers')
          errors.push((event.error as Error).message);
      },
    }).start();
    actor.send({ type: 'QTY_INCREASED', ticketId: 21, index: 0 });
    actor.send({ type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'name', value: 'Ada Lovelace' });
    actor.send({ type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'email', value: 'ada@example.test' });
    actor.send({ type: 'SEND_CLICKED' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(errors).toEqual(['setTransfers is provided by the app']);
  });
});
