/**
 * Transferring tickets (spec 001 §2 Transfer tickets, §4 Transfers, §5 Transfer row, §7
 * set_transfers): a paid, delivered sale's buyer sends some tickets to a recipient, who is e-mailed
 * a link (at once, or at a scheduled gift's date and time) and, on accepting, holds the tickets in
 * their own wallet. A sale not paid, a seated ticket, a date in the past or more tickets than are
 * left is refused in words, with nothing changed; whatever the concurrency, a ticket is given once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { RequestOf } from '../../contract/index.ts';
import { outbox, sales, tickets, transfers, users } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { sendDueTransfers, setTransfers, TRANSFER_LINK_DAYS, TRANSFER_REFUSALS } from './transfers.ts';
import { databaseDigest } from '../test/digest.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

type Row = RequestOf<'setTransfers'>['transfers'][number];

describe.each(drivers)('ticket transfers on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  const mail = () => ({ mailer: { transport: null, from: 'tickets@holdfast.test' }, brandName: 'Holdfast' });
  let recipients = 0;
  const recipient = () => `friend-${driver}-${++recipients}@example.com`;

  /** A buyer signed in as `userId` with `lines` reserved, and optionally paid and delivered. */
  async function buyer(
    lines: Record<number, number>,
    opts: { paid?: boolean; delivered?: boolean } = {},
    userId = w.demo.users.notSubscribed.id,
  ) {
    const v = new Visitor(w.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add(lines)).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    if (opts.paid !== false) {
      const paid = await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now));
      expect(paid.booked).toBe(true);
      if (opts.delivered !== false) expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    }
    return { v, saleId: sale!.id };
  }

  const row = (fields: Partial<Row> & Pick<Row, 'ticket_id'>): Row => ({
    name: 'Grace Hopper',
    email: recipient(),
    qty: 1,
    is_gift: false,
    send_gift: 'Schedule',
    delivery_date: '',
    delivery_time: '',
    message: '',
    ...fields,
  });
  const ticketsOf = (saleId: string) =>
    w.database.db.select().from(tickets).where(eq(tickets.saleId, saleId)).orderBy(tickets.id);
  const mailTo = (email: string) =>
    w.database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(outbox.id);
  const acceptPath = (body: string) => /http:\/\/[^\s]+(\/transfers\/accept\/[A-Za-z0-9_-]+\/)/.exec(body)?.[1];

  async function expectRefused(v: Visitor, rows: Row[], status: number, error: string) {
    const before = await databaseDigest(w.database.db);
    const res = await v.call('setTransfers', { transfers: rows });
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json()).toEqual({ error });
    expect(await databaseDigest(w.database.db)).toBe(before);
  }

  it('refuses a browser with no order, and a sale not yet paid, changing nothing', async () => {
    await expectRefused(
      new Visitor(w.app),
      [row({ ticket_id: w.demo.tickets.jazzGeneral })],
      404,
      TRANSFER_REFUSALS.noOrder,
    );
    const { v } = await buyer({ [w.demo.tickets.jazzGeneral]: 1 }, { paid: false });
    await expectRefused(v, [row({ ticket_id: w.demo.tickets.jazzGeneral })], 409, TRANSFER_REFUSALS.notPaid);
  });

  it('refuses rows the spec calls invalid, naming the field', async () => {
    const { v } = await buyer({ [w.demo.tickets.jazzGeneral]: 2 });
    const cases: [Partial<Row>, string][] = [
      [{ name: '  ' }, 'Invalid transfers.0.name: must not be empty'],
      [{ email: '' }, 'Invalid transfers.0.email: must be an e-mail address'],
      [{ qty: 0 }, 'Invalid transfers.0.qty: must be a whole number from 1 to 1000'],
      [
        { is_gift: true, send_gift: 'Schedule', delivery_date: '', delivery_time: '18:00' },
        'Invalid transfers.0: a scheduled gift needs a delivery date and time',
      ],
      [
        { is_gift: true, send_gift: 'Schedule', delivery_date: '31/02/2027', delivery_time: '18:00' },
        'Invalid transfers.0.delivery_date: must be a date written dd/MM/yyyy',
      ],
      [
        { is_gift: true, send_gift: 'Schedule', delivery_date: '2027-02-01', delivery_time: '18:00' },
        'Invalid transfers.0.delivery_date: must be a date written dd/MM/yyyy',
      ],
      [
        { is_gift: true, send_gift: 'Schedule', delivery_date: '01/02/2027', delivery_time: '25:00' },
        'Invalid transfers.0.delivery_time: must be a time written HH:mm',
      ],
    ];
    for (const [fields, error] of cases)
      await expectRefused(v, [row({ ticket_id: w.demo.tickets.jazzGeneral, ...fields })], 400, error);
    const empty = await v.call('setTransfers', { transfers: [] });
    expect(empty.statusCode).toBe(400);
  });

  it('sends a ticket now: the recipient is e-mailed a link, and accepting moves the ticket to their new account', async () => {
    const tom = w.demo.users.notSubscribed;
    const { v, saleId } = await buyer({ [w.demo.tickets.jazzGeneral]: 2 });
    const email = recipient();
    const res = await v.call('setTransfers', {
      transfers: [
        row({
          ticket_id: w.demo.tickets.jazzGeneral,
          name: 'Grace Hopper',
          email: email.toUpperCase(),
          is_gift: true,
          send_gift: 'Send now',
          message: 'Happy birthday!',
        }),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true });

    const [message] = await mailTo(email);
    expect(message!.subject).toBe('Tom Okafor sent you a gift: tickets for Summer Jazz on the Quay');
    expect(message!.body).toContain('Tom Okafor has sent you 1 General admission ticket for Summer Jazz on the Quay');
    expect(message!.body).toContain('Happy birthday!');
    const link = acceptPath(message!.body)!;
    expect(link).toBeDefined();

    // Until accepted, both tickets stay in the sender's wallet.
    expect((await ticketsOf(saleId)).map((t) => t.userId)).toEqual([tom.id, tom.id]);
    const friend = new Visitor(w.app);
    const offer = await friend.request({ method: 'GET', url: link });
    expect(offer.statusCode).toBe(200);
    expect(offer.json()).toEqual({
      from: 'Tom Okafor',
      tickets: [{ event_name: 'Summer Jazz on the Quay', ticket_name: 'General admission', qty: 1 }],
      message: 'Happy birthday!',
      accepted: false,
    });
    const page = await friend.request({ method: 'GET', url: link, headers: { accept: 'text/html' } });
    expect(page.body).toContain('Tom Okafor sent you tickets');
    expect(page.body).toContain('Accept tickets');

    const accepted = await friend.request({ method: 'POST', url: link, body: '', headers: { accept: 'text/html' } });
    expect(accepted.statusCode).toBe(303);
    expect(accepted.headers.location).toBe('/account/wallet/');
    const [grace] = await w.database.db.select().from(users).where(eq(users.email, email));
    expect(grace).toMatchObject({ firstName: 'Grace', lastName: 'Hopper' });
    // The link came to Grace's inbox alone: accepting proves her address.
    expect(grace!.emailProvenAt).toEqual(w.clock.now);
    const after = await ticketsOf(saleId);
    expect(after.map((t) => t.userId).sort()).toEqual([tom.id, grace!.id].sort());
    expect(after.find((t) => t.userId === grace!.id)!.holderName).toBe('Grace Hopper');
    // The recipient is signed in and sees the ticket in their wallet.
    const wallet = await friend.request({ method: 'GET', url: '/account/wallet/' });
    expect(wallet.body).toContain(after.find((t) => t.userId === grace!.id)!.code);
    expect(wallet.body).not.toContain(after.find((t) => t.userId === tom.id)!.code);

    // Accepting again moves nothing and signs no one in.
    const stranger = new Visitor(w.app);
    const again = await stranger.request({
      method: 'POST',
      url: link,
      body: '',
      headers: { accept: 'application/json' },
    });
    expect(again.statusCode).toBe(410);
    expect(again.json()).toEqual({ error: TRANSFER_REFUSALS.linkUsed });
    expect(again.cookies).toHaveLength(0);
    expect((await ticketsOf(saleId)).map((t) => t.userId)).toEqual(after.map((t) => t.userId));
  });

  it('puts the accept link on the site’s own address, whatever Host the request names', async () => {
    const { v } = await buyer({ [w.demo.tickets.jazzGeneral]: 1 });
    const email = recipient();
    const res = await v.call(
      'setTransfers',
      { transfers: [row({ ticket_id: w.demo.tickets.jazzGeneral, name: 'Grace Hopper', email })] },
      { host: 'phish.example', origin: 'http://phish.example' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const [message] = await mailTo(email);
    // Without PUBLIC_URL the site's address is http://HOST:PORT.
    expect(message!.body).toMatch(/http:\/\/127\.0\.0\.1:3000\/transfers\/accept\/[A-Za-z0-9_-]+\//);
    expect(message!.body).not.toContain('phish.example');
  });

  it('refuses more tickets than the sale still holds untransferred, in words, and changes nothing', async () => {
    const { v } = await buyer({ [w.demo.tickets.jazzGeneral]: 2, [w.demo.tickets.jazzTable]: 1 });
    await expectRefused(
      v,
      [row({ ticket_id: w.demo.tickets.jazzGeneral, qty: 2 }), row({ ticket_id: w.demo.tickets.jazzGeneral, qty: 1 })],
      409,
      'Only 2 General admission tickets are left to transfer.',
    );
    expect(
      (await v.call('setTransfers', { transfers: [row({ ticket_id: w.demo.tickets.jazzGeneral, qty: 1 })] }))
        .statusCode,
    ).toBe(200);
    await expectRefused(
      v,
      [row({ ticket_id: w.demo.tickets.jazzGeneral, qty: 2 })],
      409,
      'Only 1 General admission ticket is left to transfer.',
    );
    expect(
      (
        await v.call('setTransfers', {
          transfers: [
            row({ ticket_id: w.demo.tickets.jazzGeneral, qty: 1 }),
            row({ ticket_id: w.demo.tickets.jazzTable, qty: 1 }),
          ],
        })
      ).statusCode,
    ).toBe(200);
    await expectRefused(
      v,
      [row({ ticket_id: w.demo.tickets.jazzTable })],
      409,
      'Every Riverside table seat ticket of this order has already been transferred.',
    );
    await expectRefused(v, [row({ ticket_id: w.demo.tickets.cinema })], 409, TRANSFER_REFUSALS.notInOrder);
  });

  it('a link already accepted tells another browser only that it was used: no tickets, no sender', async () => {
    const { v } = await buyer({ [w.demo.tickets.jazzGeneral]: 1 });
    const email = recipient();
    expect(
      (await v.call('setTransfers', { transfers: [row({ ticket_id: w.demo.tickets.jazzGeneral, email })] })).statusCode,
    ).toBe(200);
    const link = acceptPath((await mailTo(email))[0]!.body)!;
    const friend = new Visitor(w.app);
    expect(
      (await friend.request({ method: 'POST', url: link, body: '', headers: { accept: 'text/html' } })).statusCode,
    ).toBe(303);
    // The recipient, signed in by accepting, still sees the tickets are theirs.
    const own = await friend.request({ method: 'GET', url: link, headers: { accept: 'text/html' } });
    expect(own.body).toContain('These tickets are yours');

    const stranger = new Visitor(w.app);
    const page = await stranger.request({ method: 'GET', url: link, headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(410);
    expect(page.body).toContain(TRANSFER_REFUSALS.linkUsed);
    for (const secret of [
      'These tickets are yours',
      'Tom Okafor',
      'General admission',
      'Summer Jazz on the Quay',
      'Accept tickets',
    ])
      expect(page.body).not.toContain(secret);
    const json = await stranger.request({ method: 'GET', url: link });
    expect(json.statusCode).toBe(410);
    expect(json.json()).toEqual({ error: TRANSFER_REFUSALS.linkUsed });
    const posted = await stranger.request({ method: 'POST', url: link, body: '', headers: { accept: 'text/html' } });
    expect(posted.statusCode).toBe(410);
    expect(posted.body).toContain(TRANSFER_REFUSALS.linkUsed);
    expect(posted.body).not.toContain('Tom Okafor');
    expect(posted.cookies).toHaveLength(0);
  });

  it('refuses seated tickets, tickets not yet delivered, a date in the past and sending to yourself', async () => {
    const seated = await buyer({ [w.demo.tickets.jazzGeneral]: 1 });
    await w.database.db.update(tickets).set({ seat: 'Stalls A 1' }).where(eq(tickets.saleId, seated.saleId));
    await expectRefused(seated.v, [row({ ticket_id: w.demo.tickets.jazzGeneral })], 409, TRANSFER_REFUSALS.seated);

    const undelivered = await buyer({ [w.demo.tickets.jazzGeneral]: 1 }, { delivered: false });
    await expectRefused(
      undelivered.v,
      [row({ ticket_id: w.demo.tickets.jazzGeneral })],
      409,
      TRANSFER_REFUSALS.notDelivered,
    );

    const { v } = await buyer({ [w.demo.tickets.jazzGeneral]: 1 });
    // The world's clock is 1 June 2026, noon UTC.
    await expectRefused(
      v,
      [
        row({
          ticket_id: w.demo.tickets.jazzGeneral,
          is_gift: true,
          send_gift: 'Schedule',
          delivery_date: '31/05/2026',
          delivery_time: '23:59',
        }),
      ],
      422,
      TRANSFER_REFUSALS.pastDate,
    );
    await expectRefused(
      v,
      [row({ ticket_id: w.demo.tickets.jazzGeneral, email: w.demo.users.notSubscribed.email })],
      422,
      TRANSFER_REFUSALS.toYourself,
    );
  });

  it('e-mails a scheduled gift at its delivery date and time, UK time, through the sweep', async () => {
    const { v, saleId } = await buyer({ [w.demo.tickets.jazzGeneral]: 1 });
    const email = recipient();
    const res = await v.call('setTransfers', {
      transfers: [
        row({
          ticket_id: w.demo.tickets.jazzGeneral,
          email,
          is_gift: true,
          send_gift: 'Schedule',
          delivery_date: '02/06/2026',
          delivery_time: '09:30',
        }),
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [t] = await w.database.db.select().from(transfers).where(eq(transfers.saleId, saleId));
    // 09:30 in London in June is 08:30 UTC (British summer time).
    expect(t!.sendAt.toISOString()).toBe('2026-06-02T08:30:00.000Z');
    expect(await mailTo(email)).toHaveLength(0);
    // Nobody can accept a gift before it is delivered.
    expect(
      (await new Visitor(w.app).request({ method: 'GET', url: `/transfers/accept/${t!.token}/` })).statusCode,
    ).toBe(404);

    expect(await sendDueTransfers(w.database.db, mail(), new Date('2026-06-02T08:29:59Z'))).toBe(0);
    expect(await mailTo(email)).toHaveLength(0);
    await Promise.all([
      sendDueTransfers(w.database.db, mail(), new Date('2026-06-02T08:30:00Z')),
      sendDueTransfers(w.database.db, mail(), new Date('2026-06-02T08:30:01Z')),
    ]);
    const sent = await mailTo(email);
    expect(sent).toHaveLength(1);
    expect(acceptPath(sent[0]!.body)).toBe(`/transfers/accept/${t!.token}/`);
  });

  it('keeps a transfer whose e-mail could not be delivered, and the sweep delivers it later', async () => {
    const { saleId } = await buyer({ [w.demo.tickets.jazzGeneral]: 1 });
    const email = recipient();
    const delivered: string[] = [];
    const down = {
      mailer: {
        transport: { sendMail: async () => Promise.reject(new Error('SMTP down')) },
        from: 'tickets@holdfast.test',
      },
      brandName: 'Holdfast',
    };
    const up = {
      mailer: {
        transport: { sendMail: async (m: { to?: unknown }) => void delivered.push(String(m.to)) },
        from: 'tickets@holdfast.test',
      },
      brandName: 'Holdfast',
    };
    const rows = [
      {
        ...row({ ticket_id: w.demo.tickets.jazzGeneral, email }),
        is_gift: false,
        send_gift: 'Send now' as const,
        qty: 1,
      },
    ];
    await setTransfers(w.database.db, down, {
      saleId,
      rows: rows as never,
      acceptUrl: (t) => `http://holdfast.test/transfers/accept/${t}/`,
      now: w.clock.now,
    });
    const [t] = await w.database.db.select().from(transfers).where(eq(transfers.saleId, saleId));
    expect(t!.sentAt).toBeNull();
    expect(await sendDueTransfers(w.database.db, up, w.clock.now)).toBe(1);
    expect(delivered).toEqual([email]);
    expect(await sendDueTransfers(w.database.db, up, w.clock.now)).toBe(0);
  });

  it('gives a ticket once when two transfers of the same tickets race', async () => {
    const { v, saleId } = await buyer({ [w.demo.tickets.jazzGeneral]: 2 });
    const replies = await Promise.all(
      Array.from({ length: 4 }, () =>
        v.call('setTransfers', { transfers: [row({ ticket_id: w.demo.tickets.jazzGeneral, qty: 2 })] }),
      ),
    );
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 409, 409, 409]);
    const made = await w.database.db.select().from(transfers).where(eq(transfers.saleId, saleId));
    expect(made).toHaveLength(1);
    expect(made[0]!.qty).toBe(2);
  });

  // Last: it moves the clock on a month.
  it('ends a link not accepted within its days: it is refused in words, moves nothing and signs no one in', async () => {
    const tom = w.demo.users.notSubscribed;
    const { v, saleId } = await buyer({ [w.demo.tickets.jazzGeneral]: 1 });
    const email = recipient();
    expect(
      (
        await v.call('setTransfers', {
          transfers: [row({ ticket_id: w.demo.tickets.jazzGeneral, name: 'Grace Hopper', email })],
        })
      ).statusCode,
    ).toBe(200);
    const link = acceptPath((await mailTo(email))[0]!.body)!;
    w.clock.advance(TRANSFER_LINK_DAYS * 86_400_000 - 60_000);
    expect((await new Visitor(w.app).request({ method: 'GET', url: link })).statusCode).toBe(200);
    w.clock.advance(60_000);
    const late = new Visitor(w.app);
    const offer = await late.request({ method: 'GET', url: link });
    expect(offer.statusCode).toBe(410);
    expect(offer.json()).toEqual({ error: TRANSFER_REFUSALS.linkExpired });
    const accept = await late.request({ method: 'POST', url: link, body: '', headers: { accept: 'text/html' } });
    expect(accept.statusCode).toBe(410);
    expect(accept.body).toContain(TRANSFER_REFUSALS.linkExpired);
    expect(accept.cookies).toHaveLength(0);
    expect((await ticketsOf(saleId)).map((t) => t.userId)).toEqual([tom.id]);
  });
});
