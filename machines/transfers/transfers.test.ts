import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Checkout } from '../../contract';
import { walk, type Expectation, type WalkEvent } from '../testing/walk';
import { transfersSenders, viewTransfers, type TransfersView } from './transfers.connect';
import { transfersMachine } from './transfers.machine';
import { canTransfer, fromDateInput, toDateInput, transferableTickets, transferTile } from './transferRows';

/* ---------- the order the walk transfers from: two Adult tickets of one event ---------- */

const ADULT = { ticket_id: 21, event_name: 'Ashcombe Lantern Trail', ticket_name: 'Adult', qty: 2 };
const TODAY = { year: 2026, month: 6, day: 1 };

/** Spec 001 §5 and §8, written here independently of the machine's constants. */
const ENTER_NAME = 'Please enter a name';
const ENTER_EMAIL = 'Please enter an email';
const ENTER_DATE = 'Please enter a date';
const ENTER_TIME = 'Please enter a time';
const PAST_DATE = 'Please choose today or a later date';
const UNABLE = 'Unable to send tickets. Please try again later';
const TRANSFERRED = 'Your tickets have been transferred';
const SERVER_TEXT = 'Only 1 Adult ticket is left to transfer.';

/* ---------- the oracle: a reference model of spec 001 §3, §4, §5 and §9, replayed from the events ---------- */

interface ModelRow {
  key: number;
  qty: number;
  name: string;
  email: string;
  gift: boolean;
  choice: string;
  date: string;
  time: string;
  message: string;
}

interface Model {
  phase: 'editing' | 'sending' | 'sent';
  rows: ModelRow[];
  nextKey: number;
  open: boolean;
  pointed: number | null;
  problem: string | null;
}

const blankRow = (key: number, qty: number): ModelRow => ({
  key,
  qty,
  name: '',
  email: '',
  gift: false,
  choice: 'Schedule',
  date: '',
  time: '',
  message: '',
});

/** §9: the first row starts at 0, the default delivery choice is 'Schedule'. */
const start: Model = {
  phase: 'editing',
  rows: [blankRow(1, 0)],
  nextKey: 2,
  open: false,
  pointed: null,
  problem: null,
};

const total = (m: Model) => m.rows.reduce((sum, r) => sum + r.qty, 0);

function dateProblem(text: string): string | null {
  const match = /^(\d{2})\/(\d{2})\/(\d{4})$/.exec(text);
  if (!match) return ENTER_DATE;
  const [d, mo, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  return y * 10_000 + mo * 100 + d < TODAY.year * 10_000 + TODAY.month * 100 + TODAY.day ? PAST_DATE : null;
}

/** §5: a row is valid when its name and e-mail are filled; a scheduled gift also needs its date (not past) and time. */
function problemsOf(row: ModelRow) {
  const scheduled = row.gift && row.choice === 'Schedule';
  return {
    name: row.name.trim() ? null : ENTER_NAME,
    email: row.email.trim() ? null : ENTER_EMAIL,
    date: scheduled ? dateProblem(row.date) : null,
    time: scheduled && !row.time ? ENTER_TIME : null,
  };
}
const valid = (row: ModelRow) => Object.values(problemsOf(row)).every((p) => p === null);

function step(model: Model, event: WalkEvent): Model {
  const m: Model = { ...model, rows: model.rows.map((r) => ({ ...r })) };
  if (event.type === 'xstate.done.actor.setTransfers') return { ...m, phase: 'sent' };
  if (event.type === 'xstate.error.actor.setTransfers')
    return { ...m, phase: 'editing', problem: (event.error as Error).message || UNABLE };
  if (m.phase !== 'editing') return m;
  const row = event.ticketId === ADULT.ticket_id ? m.rows[event.index as number] : undefined;
  switch (event.type) {
    case 'SECTION_TOGGLED':
      return event.ticketId === ADULT.ticket_id ? { ...m, open: !m.open } : m;
    case 'QTY_INCREASED':
      // §4: capped by what can be added: the rows together never pass the two bought.
      if (row && total(m) < ADULT.qty) row.qty += 1;
      return m;
    case 'QTY_DECREASED':
      if (row && row.qty > 0) row.qty -= 1;
      return m;
    case 'ROW_ADDED':
      // §5: refused if the row count already exceeds the qty; an added row starts at 1 within the cap.
      if (event.ticketId === ADULT.ticket_id && m.rows.length <= ADULT.qty && total(m) + 1 <= ADULT.qty) {
        m.rows.push(blankRow(m.nextKey, 1));
        m.nextKey += 1;
      }
      return m;
    case 'ROW_REMOVED':
      if (row && (event.index as number) > 0) {
        m.rows = m.rows.filter((r) => r !== row);
        if (m.pointed === row.key) m.pointed = null;
      }
      return m;
    case 'GIFT_TOGGLED':
      if (row) row.gift = !row.gift;
      return m;
    case 'DELIVERY_CHOSEN':
      if (row && (event.choice === 'Schedule' || event.choice === 'Send now')) row.choice = event.choice as string;
      return m;
    case 'FIELD_CHANGED': {
      if (!row) return m;
      // Names are kept to 200 characters and messages to 1000, what the server takes.
      const value = (event.value as string).slice(
        0,
        event.field === 'name' ? 200 : event.field === 'message' ? 1000 : undefined,
      );
      const field = { name: 'name', email: 'email', delivery_date: 'date', delivery_time: 'time', message: 'message' }[
        event.field as string
      ] as keyof ModelRow;
      (row as unknown as Record<string, string>)[field] = value;
      return m;
    }
    case 'SEND_CLICKED': {
      const toSend = m.rows.filter((r) => r.qty > 0);
      if (toSend.length === 0) return m;
      const invalid = toSend.find((r) => !valid(r));
      if (invalid) return { ...m, pointed: invalid.key, open: true };
      return { ...m, phase: 'sending', problem: null, pointed: null };
    }
  }
  return m;
}

const replay = (events: WalkEvent[]) => events.reduce(step, start);

function expectedView(m: Model): TransfersView {
  const none = { name: null, email: null, date: null, time: null };
  return {
    sections: [
      {
        ticketId: ADULT.ticket_id,
        title: 'Ashcombe Lantern Trail - Adult',
        qty: 2,
        open: m.open,
        canAddRow: m.rows.length <= 2 && total(m) + 1 <= 2,
        rows: m.rows.map((r, index) => ({
          key: r.key,
          index,
          qty: r.qty,
          canIncrease: total(m) < 2,
          canDecrease: r.qty > 0,
          removable: index > 0,
          isGift: r.gift,
          sendGift: r.choice as 'Schedule' | 'Send now',
          scheduled: r.gift && r.choice === 'Schedule',
          name: r.name,
          email: r.email,
          deliveryDate: r.date,
          deliveryTime: r.time,
          message: r.message,
          problems: m.pointed === r.key ? problemsOf(r) : none,
        })),
      },
    ],
    canSend: m.phase === 'editing' && m.rows.some((r) => r.qty > 0),
    sendingTickets: m.phase === 'sending',
    ticketsSent: m.phase === 'sent',
    canTransferTickets: m.phase !== 'sent',
    problem: m.problem,
    success: m.phase === 'sent' ? TRANSFERRED : null,
  };
}

/** §7: the rows at quantity 0 are skipped; the schedule only for a scheduled gift, the message only for a gift. */
function payload(m: Model) {
  return {
    transfers: m.rows
      .filter((r) => r.qty > 0)
      .map((r) => ({
        ticket_id: ADULT.ticket_id,
        name: r.name.trim(),
        email: r.email.trim(),
        qty: r.qty,
        is_gift: r.gift,
        send_gift: r.choice,
        delivery_date: r.gift && r.choice === 'Schedule' ? r.date : '',
        delivery_time: r.gift && r.choice === 'Schedule' ? r.time : '',
        message: r.gift ? r.message.trim() : '',
      })),
  };
}

const at = (index: number, ticketId = ADULT.ticket_id) => ({ ticketId, index });
const field = (index: number, name: string, value: string) => ({
  type: 'FIELD_CHANGED',
  ...at(index),
  field: name,
  value,
});

describe('transfers machine', () => {
  it('is walked at 100 %: sections, the quantity caps, rows added and removed, gifts and schedules, validation on submit, sending and its failure', async () => {
    const result = await walk<TransfersView>({
      name: 'transfers',
      machine: transfersMachine,
      input: { tickets: [ADULT], today: TODAY },
      fakes: (kit) => ({ actors: { setTransfers: kit.controlled() } }),
      askIgnored: true,
      events: {
        SECTION_TOGGLED: [
          { type: 'SECTION_TOGGLED', ticketId: 21 },
          { type: 'SECTION_TOGGLED', ticketId: 99 },
        ],
        QTY_INCREASED: [0, 1, 2].map((i) => ({ type: 'QTY_INCREASED', ...at(i) })),
        QTY_DECREASED: [0, 1].map((i) => ({ type: 'QTY_DECREASED', ...at(i) })),
        ROW_ADDED: [
          { type: 'ROW_ADDED', ticketId: 21 },
          { type: 'ROW_ADDED', ticketId: 99 },
        ],
        ROW_REMOVED: [0, 1, 2].map((i) => ({ type: 'ROW_REMOVED', ...at(i) })),
        GIFT_TOGGLED: [
          { type: 'GIFT_TOGGLED', ...at(0) },
          { type: 'GIFT_TOGGLED', ...at(5) },
        ],
        DELIVERY_CHOSEN: ['Send now', 'Schedule', 'Later'].map((choice) => ({
          type: 'DELIVERY_CHOSEN',
          ...at(0),
          choice,
        })),
        FIELD_CHANGED: [
          field(0, 'name', 'Ada Lovelace'),
          field(0, 'name', '  '),
          field(0, 'email', 'ada@example.com'),
          field(0, 'delivery_date', '25/12/2026'),
          field(0, 'delivery_date', '31/05/2026'),
          field(0, 'delivery_time', '18:30'),
          field(0, 'message', ' Enjoy the lanterns '),
          field(1, 'name', 'Grace Hopper'),
          field(1, 'email', 'grace@example.com'),
          field(7, 'name', 'Nobody'),
        ],
        'xstate.done.actor.setTransfers': [{ type: 'xstate.done.actor.setTransfers', output: { success: true } }],
        'xstate.error.actor.setTransfers': [
          {
            type: 'xstate.error.actor.setTransfers',
            error: Object.assign(new Error(SERVER_TEXT), { text: SERVER_TEXT }),
          },
          { type: 'xstate.error.actor.setTransfers', error: Object.assign(new Error(''), { text: '' }) },
        ],
      },
      // What decides the chart's choices: each row's quantity and how much the rows to send still miss
      // (a name, an address, and for a scheduled gift its date and time). Whether the form is valid
      // alone would merge a half-filled form with an empty one, and the walk would never send.
      serializeState: (s) => {
        const c = s.context;
        type Row = {
          qty: number;
          name: string;
          email: string;
          is_gift: boolean;
          send_gift: string;
          delivery_date: string;
          delivery_time: string;
        };
        const missing = (r: Row) =>
          [
            !r.name.trim(),
            !r.email.trim(),
            r.is_gift && r.send_gift === 'Schedule' && !r.delivery_date,
            r.is_gift && r.send_gift === 'Schedule' && !r.delivery_time,
          ].filter(Boolean).length;
        return JSON.stringify([
          s.value,
          c.rows.map((r: Row) => r.qty),
          c.rows.reduce((sum: number, r: Row) => sum + (r.qty > 0 ? missing(r) : 0), 0),
        ]);
      },
      view: (snapshot) => viewTransfers(snapshot as never),
      initial: () => ({ view: expectedView(start), running: [] }),
      oracle: ({ event, earlier }): Expectation<TransfersView> => {
        const before = replay(earlier.map((e) => e.event));
        const after = step(before, event);
        const expectation: Expectation<TransfersView> = {
          view: expectedView(after),
          running: after.phase === 'sending' ? ['setTransfers'] : [],
        };
        if (after.phase === 'sending' && before.phase !== 'sending')
          expectation.started = { setTransfers: [payload(after)] };
        if (after.phase === 'sent') expectation.output = { kind: 'transferred' };
        return expectation;
      },
      extraPaths: [
        {
          // A section closed again; a pointed-out row removed; the next submit points out the first row and opens its section again.
          events: [
            { type: 'SECTION_TOGGLED', ticketId: 21 },
            { type: 'SECTION_TOGGLED', ticketId: 21 },
            { type: 'ROW_ADDED', ticketId: 21 },
            { type: 'SEND_CLICKED' },
            { type: 'SECTION_TOGGLED', ticketId: 21 },
            { type: 'ROW_REMOVED', ...at(1) },
            { type: 'QTY_INCREASED', ...at(0) },
            { type: 'SEND_CLICKED' },
            { type: 'SECTION_TOGGLED', ticketId: 21 },
            { type: 'SECTION_TOGGLED', ticketId: 21 },
            field(0, 'name', `  ${'N'.repeat(250)}  `),
            field(0, 'name', ' Ada Lovelace '),
            field(0, 'email', ' ada@example.com '),
            { type: 'GIFT_TOGGLED', ...at(0) },
            { type: 'DELIVERY_CHOSEN', ...at(0), choice: 'Send now' },
            field(0, 'message', `${'m'.repeat(1200)}`),
            field(0, 'message', '  Enjoy!  '),
            { type: 'SEND_CLICKED' },
            { type: 'xstate.done.actor.setTransfers', output: { success: true } },
          ],
        },
        {
          // A scheduled gift: each missing part pointed out in turn, a failed send, then sent.
          events: [
            { type: 'QTY_INCREASED', ...at(0) },
            { type: 'SEND_CLICKED' },
            field(0, 'name', 'Ada Lovelace'),
            field(0, 'email', 'ada@example.com'),
            { type: 'GIFT_TOGGLED', ...at(0) },
            { type: 'SEND_CLICKED' },
            field(0, 'delivery_date', '31/05/2026'),
            { type: 'SEND_CLICKED' },
            field(0, 'delivery_date', '01/06/2026'),
            field(0, 'delivery_time', '09:00'),
            field(0, 'message', 'Happy birthday'),
            { type: 'ROW_ADDED', ticketId: 21 },
            { type: 'SEND_CLICKED' },
            field(1, 'name', 'Grace Hopper'),
            field(1, 'email', 'grace@example.com'),
            { type: 'SEND_CLICKED' },
            { type: 'xstate.error.actor.setTransfers', error: new Error('') },
            { type: 'SEND_CLICKED' },
            { type: 'xstate.done.actor.setTransfers', output: { success: true } },
          ],
        },
      ],
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
    // The generated paths themselves send (editing -> sending -> sent, and back to editing on a failure), not only the extra ones.
    expect(result.simplePaths.total).toBe(2);
    expect(result.chartPaths).toMatchObject({ bound: 2, walked: 2, missing: [] });
  }, 300_000);

  it('keeps each ticket type in its own section, and points out the first invalid row of any of them', async () => {
    const sent: unknown[] = [];
    const CHILD = { ticket_id: 22, event_name: 'Ashcombe Lantern Trail', ticket_name: 'Child', qty: 1 };
    const actor = createActor(
      transfersMachine.provide({
        actors: {
          setTransfers: fromPromise(async ({ input }) => {
            sent.push(input);
            return { success: true as const };
          }),
        },
      }),
      { input: { tickets: [ADULT, CHILD], today: TODAY } },
    ).start();
    const send = transfersSenders((event) => actor.send(event));
    expect(viewTransfers(actor.getSnapshot()).sections.map((s) => [s.title, s.open, s.rows.map((r) => r.qty)])).toEqual(
      [
        ['Ashcombe Lantern Trail - Adult', false, [0]],
        ['Ashcombe Lantern Trail - Child', false, [0]],
      ],
    );
    send.increase(at(0, 22));
    send.increase(at(0, 22));
    send.addRow(22);
    send.change(at(0, 21), 'name', 'Ada Lovelace');
    expect(viewTransfers(actor.getSnapshot()).sections[1]!.rows.map((r) => r.qty)).toEqual([1]);
    send.sendTickets();
    const view = viewTransfers(actor.getSnapshot());
    // The Adult row has no quantity, so it is skipped: the Child row is the first invalid one.
    expect(view.sections.map((s) => s.open)).toEqual([false, true]);
    expect(view.sections[1]!.rows[0]!.problems).toEqual({
      name: ENTER_NAME,
      email: ENTER_EMAIL,
      date: null,
      time: null,
    });
    send.change(at(0, 22), 'name', 'Sam Okafor');
    send.change(at(0, 22), 'email', 'sam@example.com');
    send.sendTickets();
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([
      {
        transfers: [
          {
            ticket_id: 22,
            name: 'Sam Okafor',
            email: 'sam@example.com',
            qty: 1,
            is_gift: false,
            send_gift: 'Schedule',
            delivery_date: '',
            delivery_time: '',
            message: '',
          },
        ],
      },
    ]);
    expect(viewTransfers(actor.getSnapshot())).toMatchObject({
      ticketsSent: true,
      canTransferTickets: false,
      success: TRANSFERRED,
      canSend: false,
    });
  });

  it('turns each control of the screen into its event', () => {
    const sent: unknown[] = [];
    const send = transfersSenders((event) => sent.push(event));
    send.toggleSection(21);
    send.increase(at(0));
    send.decrease(at(1));
    send.addRow(21);
    send.removeRow(at(1));
    send.toggleGift(at(0));
    send.chooseDelivery(at(0), 'Send now');
    send.change(at(0), 'email', 'ada@example.com');
    send.sendTickets();
    expect(sent).toEqual([
      { type: 'SECTION_TOGGLED', ticketId: 21 },
      { type: 'QTY_INCREASED', ticketId: 21, index: 0 },
      { type: 'QTY_DECREASED', ticketId: 21, index: 1 },
      { type: 'ROW_ADDED', ticketId: 21 },
      { type: 'ROW_REMOVED', ticketId: 21, index: 1 },
      { type: 'GIFT_TOGGLED', ticketId: 21, index: 0 },
      { type: 'DELIVERY_CHOSEN', ticketId: 21, index: 0, choice: 'Send now' },
      { type: 'FIELD_CHANGED', ticketId: 21, index: 0, field: 'email', value: 'ada@example.com' },
      { type: 'SEND_CLICKED' },
    ]);
  });
});

describe('which tickets can be transferred (spec 001 §2 Order completed, §4 Transfers)', () => {
  const line = (ticket_id: number, qty: number, seats: number) =>
    ({
      ticket_id,
      event_name: 'Folk Night',
      ticket_name: `Type ${ticket_id}`,
      qty,
      seats: Array.from({ length: seats }, (_, i) => ({ section: 'Stalls', row: 'A', number: String(i + 1) })),
    }) as Checkout['tickets'][number];
  const order = (tickets: Checkout['tickets'], extra: Partial<Checkout> = {}) =>
    ({ tickets, payment_complete: true, payment_plan_remaining: null, ...extra }) as Pick<
      Checkout,
      'tickets' | 'payment_complete' | 'payment_plan_remaining'
    >;

  it('leaves seated tickets out of the form', () => {
    expect(transferableTickets(order([line(1, 2, 0), line(2, 1, 1)]))).toEqual([
      { ticket_id: 1, event_name: 'Folk Night', ticket_name: 'Type 1', qty: 2 },
    ]);
  });

  it('shows the tile for a paid order with tickets, disabled when every ticket is seated; not for an unpaid order or a payment plan', () => {
    expect(transferTile(order([line(1, 2, 0), line(2, 1, 1)]))).toEqual({ shown: true, disabled: false });
    expect(transferTile(order([line(2, 2, 2)]))).toEqual({ shown: true, disabled: true });
    expect(transferTile(order([line(1, 1, 0)], { payment_complete: false }))).toEqual({
      shown: false,
      disabled: false,
    });
    expect(transferTile(order([line(1, 1, 0)], { payment_plan_remaining: 5000 }))).toEqual({
      shown: false,
      disabled: false,
    });
    expect(transferTile(order([]))).toEqual({ shown: false, disabled: false });
    expect(canTransfer(undefined)).toBe(false);
    expect(canTransfer(order([line(1, 1, 0)]))).toBe(true);
  });

  it('carries the date input’s yyyy-mm-dd as the spec’s dd/MM/yyyy and back', () => {
    expect(fromDateInput('2026-12-25')).toBe('25/12/2026');
    expect(fromDateInput('')).toBe('');
    expect(toDateInput('25/12/2026')).toBe('2026-12-25');
    expect(toDateInput('31/02/2026')).toBe('');
    expect(fromDateInput('x2026-12-25')).toBe('');
    expect(fromDateInput('2026-12-25x')).toBe('');
  });
});
