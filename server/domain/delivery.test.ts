/**
 * Delivery (spec 001 §4 Delivery, §7): deliver_to_bitticket issues a paid sale's tickets once, each
 * with its own unguessable code, whatever the concurrency; deliver_to_wallet sends the wallet
 * e-mail through the outbox once; /account/wallet/ shows the signed-in buyer's tickets with a QR
 * code each; get_simple_info gives the order-completed screen the sale's e-mail and reference.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { rows } from '../db/index.ts';
import { outbox, sales, tickets } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { NOT_PAID_MESSAGE } from './tickets.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { decodeQrSvg } from '../test/qrDecode.ts';

const UNABLE_TO_DELIVER_TO_WALLET = 'Unable to deliver to Wallet. Please try again later';

describe.each(drivers)('delivery on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  /** A visitor signed in as `userId` (or a guest) holding a reserved basket; the sale's id. */
  async function reservedBuyer(lines: Record<number, number>, userId?: number) {
    const v = new Visitor(w.app);
    if (userId !== undefined)
      expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add(lines)).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    return { v, saleId: sale!.id, reference };
  }

  async function pay(saleId: string) {
    const result = await w.database.db.transaction((tx) => completeSale(tx, saleId, w.clock.now));
    expect(result.booked).toBe(true);
  }

  const ticketsOf = (saleId: string) =>
    w.database.db.select().from(tickets).where(eq(tickets.saleId, saleId)).orderBy(tickets.id);
  const mailTo = (email: string) =>
    w.database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(outbox.id);

  it('refuses to deliver a sale that is not paid, with a clear 409, and issues nothing', async () => {
    const amelia = w.demo.users.subscribedDark;
    const { v, saleId } = await reservedBuyer({ [w.demo.tickets.cinema]: 1 }, amelia.id);
    for (const call of ['deliverToBitticket', 'deliverToWallet'] as const) {
      const res = await v.call(call);
      expect(res.statusCode).toBe(409);
      expect(res.json()).toEqual({ error: NOT_PAID_MESSAGE });
    }
    expect(await ticketsOf(saleId)).toHaveLength(0);
  });

  it('answers 404 to a browser with no order', async () => {
    const res = await new Visitor(w.app).call('deliverToBitticket');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'There is no order to deliver in this browser.' });
  });

  it('issues one ticket per admission once, each with its own unguessable code, however often and however concurrently it is called', async () => {
    const tom = w.demo.users.notSubscribed;
    const { v, saleId } = await reservedBuyer(
      { [w.demo.tickets.jazzGeneral]: 2, [w.demo.tickets.jazzTable]: 1 },
      tom.id,
    );
    await pay(saleId);

    const replies = await Promise.all(Array.from({ length: 8 }, () => v.call('deliverToBitticket')));
    for (const res of replies) {
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ delivery_completed: true });
    }
    const issued = await ticketsOf(saleId);
    expect(issued).toHaveLength(3);
    expect(issued.map((t) => [t.ticketTypeId, t.copy]).sort()).toEqual(
      [
        [w.demo.tickets.jazzGeneral, 1],
        [w.demo.tickets.jazzGeneral, 2],
        [w.demo.tickets.jazzTable, 1],
      ].sort(),
    );
    expect(new Set(issued.map((t) => t.code)).size).toBe(3);
    for (const t of issued) {
      expect(t.code).toMatch(/^HFT-[0-9A-HJKMNP-TV-Z]{20}$/);
      expect(t.holderName).toBe('Tom Okafor');
      expect(t.userId).toBe(tom.id);
    }

    // Later calls change nothing either.
    expect((await v.json('deliverToBitticket')).delivery_completed).toBe(true);
    expect((await ticketsOf(saleId)).map((t) => t.code)).toEqual(issued.map((t) => t.code));
  });

  it('sends the wallet e-mail once, through the outbox, with every ticket’s event, date, seat, holder and code', async () => {
    const amelia = w.demo.users.subscribedDark;
    const { v, saleId, reference } = await reservedBuyer({ [w.demo.tickets.lanternEarlyAdult]: 2 }, amelia.id);
    await pay(saleId);
    const before = (await mailTo(amelia.email)).length;

    // The wallet needs its tickets first.
    expect(await v.json('deliverToWallet')).toEqual({ delivery_completed: false });
    expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    const replies = await Promise.all(Array.from({ length: 4 }, () => v.call('deliverToWallet')));
    expect(replies.map((r) => r.json())).toEqual(Array(4).fill({ delivery_completed: true }));
    expect(await v.json('deliverToWallet')).toEqual({ delivery_completed: true });

    const mail = (await mailTo(amelia.email)).slice(before);
    expect(mail).toHaveLength(1);
    expect(mail[0]!.subject).toBe(`Your tickets (${reference})`);
    const codes = (await ticketsOf(saleId)).map((t) => t.code);
    for (const code of codes) expect(mail[0]!.body).toContain(`Ticket code: ${code}`);
    expect(mail[0]!.body).toContain('General admission · Amelia Hughes');
    expect(mail[0]!.body).toMatch(/http:\/\/[^\s]+\/account\/wallet\//);
  });

  it('answers delivery_completed false for a paid sale with no buyer account to hold the tickets', async () => {
    const { v, saleId } = await reservedBuyer({ [w.demo.tickets.cinema]: 1 });
    await pay(saleId);
    expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: false });
    expect(await v.json('deliverToWallet')).toEqual({ delivery_completed: false });
    expect(await ticketsOf(saleId)).toHaveLength(0);
  });

  it('lists the signed-in buyer’s tickets on /account/wallet/ with a QR code each, and no one else’s', async () => {
    const amelia = w.demo.users.subscribedDark;
    const { v, saleId } = await reservedBuyer({ [w.demo.tickets.foodDayPass]: 2 }, amelia.id);
    await pay(saleId);
    await v.json('deliverToBitticket');
    const codes = (await ticketsOf(saleId)).map((t) => t.code);

    const page = await v.request({ method: 'GET', url: '/account/wallet/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    for (const code of codes) {
      expect(page.body).toContain(`data-code="${code}"`);
      expect(page.body).toContain(`aria-label="QR code of ticket ${code}"`);
      const svg = new RegExp(`data-code="${code}">\\s*<div class="wallet-ticket__qr">(<svg .*?</svg>)`).exec(
        page.body,
      )?.[1];
      expect(decodeQrSvg(svg ?? '')).toBe(code);
    }
    const [count] = await rows<{ n: number }>(
      w.database.db,
      sql`SELECT count(*)::int AS n FROM tickets WHERE user_id = ${amelia.id}`,
    );
    expect(page.body.match(/<svg [^>]*class="qr"/g)).toHaveLength(Number(count!.n));
    expect(page.body).toContain('Amelia Hughes');
    expect(page.body).toContain('General admission');

    const tom = new Visitor(w.app);
    await tom.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` });
    const tomsPage = (await tom.request({ method: 'GET', url: '/account/wallet/' })).body;
    for (const code of codes) expect(tomsPage).not.toContain(code);

    const stranger = await new Visitor(w.app).request({ method: 'GET', url: '/account/wallet/' });
    expect(stranger.statusCode).toBe(200);
    expect(stranger.body).toContain('Sign in to see your tickets.');
    expect(stranger.body).not.toContain('class="qr"');
  });

  it('keeps a ticket in its holder’s wallet, with its order reference, even when the sale row is gone', async () => {
    const tom = w.demo.users.notSubscribed;
    const { v, saleId, reference } = await reservedBuyer({ [w.demo.tickets.trail10k]: 1 }, tom.id);
    await pay(saleId);
    await v.json('deliverToBitticket');
    const [ticket] = await ticketsOf(saleId);
    await w.database.db.delete(sales).where(eq(sales.id, saleId));
    const page = (await v.request({ method: 'GET', url: '/account/wallet/' })).body;
    expect(page).toContain(`data-code="${ticket!.code}"`);
    expect(page).toContain(reference);
  });

  it('gives the order-completed screen the sale’s e-mail and reference', async () => {
    const amelia = w.demo.users.subscribedDark;
    const { v, reference } = await reservedBuyer({ [w.demo.tickets.cinema]: 1 }, amelia.id);
    expect(await v.json('getSimpleInfo')).toEqual({ sale_email: amelia.email, sale_reference: reference });
    expect(await new Visitor(w.app).json('getSimpleInfo')).toEqual({ sale_email: null, sale_reference: null });
  });

  it('tells the buyer to try again when the mail server refuses the wallet, and sends it on the retry', async () => {
    let refuse = true;
    const sent: unknown[] = [];
    const app = await buildApp({
      db: w.database.db,
      config: testConfig(),
      clock: () => w.clock.now,
      logger: false,
      mailer: {
        from: 'tickets@holdfast.test',
        transport: {
          sendMail: async (message) => {
            if (refuse) throw new Error('connection refused');
            sent.push(message);
          },
        },
      },
    });
    await app.ready();
    try {
      const tom = w.demo.users.notSubscribed;
      const v = new Visitor(app);
      await v.request({ method: 'POST', url: '/signin/', body: `user_id=${tom.id}` });
      await v.add({ [w.demo.tickets.cinema]: 1 });
      await v.json('reserveTickets');
      const reference = (await v.checkout()).sale_reference!;
      const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
      await pay(sale!.id);
      await v.json('deliverToBitticket');

      const refused = await v.call('deliverToWallet');
      expect(refused.statusCode).toBe(502);
      expect(refused.json()).toEqual({ error: UNABLE_TO_DELIVER_TO_WALLET });
      refuse = false;
      expect(await v.json('deliverToWallet')).toEqual({ delivery_completed: true });
      expect(sent).toHaveLength(1);
    } finally {
      await app.close();
    }
  });
});
