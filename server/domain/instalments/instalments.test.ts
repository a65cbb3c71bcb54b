/**
 * Instalment plans through the real app on each driver: the options and schedules a basket is
 * offered, pay_with_instalment's refusals and results, and the job with an injected clock: the
 * reminder before each instalment, each later instalment charged once on its due date even with
 * two runners at once or after a restart, retries on the stated schedule then the buyer and the
 * organiser told, and the tickets delivered as they are paid for.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import {
  discountCodes,
  organisers,
  instalmentPlans,
  instalments,
  outbox,
  paymentRefunds,
  payments,
  sales,
  sandboxCharges,
  savedPaymentMethods,
  tickets,
} from '../../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../../test/harness.ts';
import { planOptions, SANDBOX_CARDS } from '../../../contract/index.ts';
import { INSTALMENT_MESSAGES } from '../../../contract/messages/instalment.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { runInstalmentJob, type JobDeps } from './job.ts';
import { sandboxSavedCards } from './offSession.ts';
import { SANDBOX_FAIL_LATER_CARD } from './sandboxCards.ts';
import { computeSchedule } from './schedule.ts';
import { giftAidSchedule } from '../giftAid.ts';

const DAY = 86_400_000;
/** A weekend ticket: £180 and a £9 booking fee. */
const WEEKEND = 18_900;

describe('computeSchedule', () => {
  it('splits a total into equal payments with the remainder first, every interval from the start', () => {
    const start = new Date('2026-06-01T12:00:00Z');
    const s = computeSchedule(10_000, 3, 30, start);
    expect(s.map((p) => p.amount)).toEqual([3334, 3333, 3333]);
    expect(s.map((p) => p.dueAt.toISOString())).toEqual([
      '2026-06-01T12:00:00.000Z',
      '2026-07-01T12:00:00.000Z',
      '2026-07-31T12:00:00.000Z',
    ]);
  });
});

describe.each(drivers)('instalment plans on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  const job = (): JobDeps => ({
    db: w.database.db,
    cards: sandboxSavedCards(),
    mail: {
      mailer: { transport: null, from: 'test@holdfast.test' },
      brandName: 'Holdfast',
      publicUrl: 'http://holdfast.test',
    },
    walletUrl: 'http://holdfast.test/account/wallet/',
  });
  const mailTo = (email: string) =>
    w.database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(asc(outbox.id));

  /** Amelia (or another seeded user) with `qty` weekend tickets reserved; the sale's id. */
  async function planBuyer(qty: number, userId = w.demo.users.subscribedDark.id) {
    const v = new Visitor(w.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add({ [w.demo.plans.weekend]: qty })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    return { v, saleId: sale!.id, reference };
  }

  async function newCard(v: Visitor, number: string = SANDBOX_CARDS.success) {
    const res = await v.call('saveSandboxCard', { number, expiry: '12/34', cvc: '123' });
    expect(res.statusCode).toBe(200);
    return res.json() as { id: string; brand: string; last4: string; month: number; year: number; funding: string };
  }

  it('offers the event’s plans with their schedules for the basket’s total, in pounds only', async () => {
    const { v } = await planBuyer(2);
    const checkout = await v.checkout();
    expect(Object.keys(checkout.payment_plan_schedule_options).sort()).toEqual(['1', '2', '3']);
    const options = planOptions(checkout);
    expect(options.map((o) => o.option)).toEqual(['2', '3']);
    expect(options[1]!.label).toBe('3 monthly payments');
    expect(options[1]!.schedule).toEqual([
      { uk_due: '01/06/2026', value: 12_600 },
      { uk_due: '01/07/2026', value: 12_600 },
      { uk_due: '31/07/2026', value: 12_600 },
    ]);
    expect(options[0]!.schedule.reduce((sum, s) => sum + s.value, 0)).toBe(2 * WEEKEND);
    expect(checkout.payment_plan_remaining).toBeNull();
    // Another event's basket offers none.
    const other = new Visitor(w.app);
    await other.add({ [w.demo.tickets.trail10k]: 1 });
    expect((await other.checkout()).payment_plan_schedule_options).toEqual({});
  });

  it('refuses a bad phone, the pay-in-full option, an unknown option or no card with a 400 and changes nothing', async () => {
    const { v, saleId } = await planBuyer(1);
    const card = await newCard(v);
    const cases = [
      [{ instalment_option: '2', contact_number: '12ab', new_payment_method: card }, PAYMENT_MESSAGES.phone],
      [
        { instalment_option: '1', contact_number: '07700 900123', new_payment_method: card },
        INSTALMENT_MESSAGES.chooseOption,
      ],
      [
        { instalment_option: '9', contact_number: '07700 900123', new_payment_method: card },
        INSTALMENT_MESSAGES.chooseOption,
      ],
      [{ instalment_option: '2', contact_number: '07700 900123' }, INSTALMENT_MESSAGES.chooseCard],
      [
        { instalment_option: '2', contact_number: '07700 900123', selected_payment_method_id: 'pm_someone_else' },
        INSTALMENT_MESSAGES.chooseCard,
      ],
      [
        {
          instalment_option: '2',
          contact_number: '07700 900123',
          new_payment_method: { ...card, id: 'pm_sandbox_unknown' },
        },
        INSTALMENT_MESSAGES.chooseCard,
      ],
    ] as const;
    for (const [body, message] of cases) {
      const res = await v.call('payWithInstalment', body as never);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toEqual({ error: message });
    }
    expect(await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId))).toEqual([]);
    expect((await v.checkout()).payment_complete).toBe(false);
  });

  it('answers unsuccessful for a declined card and sets nothing up', async () => {
    const { v, saleId } = await planBuyer(1);
    const res = await v.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: '07700 900123',
      new_payment_method: await newCard(v, SANDBOX_CARDS.decline),
    });
    expect(res.json()).toEqual({ status: 'unsuccessful', url: null });
    expect(await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId))).toEqual([]);
    expect((await v.checkout()).payment_complete).toBe(false);
  });

  it('sets a plan up: the first instalment taken, the card saved as default, the schedule kept and e-mailed; the job charges the rest once each', async () => {
    const amelia = w.demo.users.subscribedDark;
    const { v, saleId, reference } = await planBuyer(2);
    const card = await newCard(v);
    const before = (await mailTo(amelia.email)).length;
    const res = await v.call('payWithInstalment', {
      instalment_option: '3',
      contact_number: '07700 900123',
      new_payment_method: { ...card, make_default_payment_method: 'true' },
    });
    expect(res.json()).toEqual({ status: 'success', url: null });
    // Asking again (a double click) sets nothing up twice.
    expect(
      (
        await v.call('payWithInstalment', {
          instalment_option: '3',
          contact_number: '07700 900123',
          new_payment_method: card,
        })
      ).json(),
    ).toEqual({ status: 'success', url: null });

    const checkout = await v.checkout();
    expect(checkout.payment_complete).toBe(true);
    expect(checkout.payment_plan_remaining).toBe(2 * 12_600);
    const saved = (await v.json('getSavedPaymentMethods')).payment_methods as {
      payment_method_id: string;
      is_default: boolean;
      last4digits: string;
      expiry: string;
      card_type: string;
    }[];
    expect(saved.find((m) => m.payment_method_id === card.id)).toEqual({
      payment_method_id: card.id,
      card_type: 'visa',
      last4digits: '4242',
      expiry: '12/34',
      is_default: true,
    });
    const schedule = await w.database.db
      .select()
      .from(instalments)
      .where(eq(instalments.saleId, saleId))
      .orderBy(asc(instalments.seq));
    expect(schedule.map((i) => [i.seq, i.amount, i.status])).toEqual([
      [1, 12_600, 'paid'],
      [2, 12_600, 'scheduled'],
      [3, 12_600, 'scheduled'],
    ]);
    const mails = (await mailTo(amelia.email)).slice(before);
    expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Your payment schedule for order /)]);
    expect(mails[0]!.body).toContain('2. 01/07/2026: £126.00');

    // Delivery now: nothing is fully paid yet (£126 of £378 covers no whole £189 ticket).
    expect((await v.json('deliverToBitticket')).delivery_completed).toBe(true);
    expect((await v.json('deliverToWallet')).delivery_completed).toBe(true);
    expect(await w.database.db.select().from(tickets).where(eq(tickets.saleId, saleId))).toHaveLength(0);

    const chargesOf = async () =>
      (await w.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.cardId, card.id))).filter(
        (c) => c.status === 'succeeded',
      );
    expect(await chargesOf()).toHaveLength(1);

    // 27 June: three days before the second instalment, its reminder; nothing charged.
    const june27 = new Date('2026-06-28T12:00:00Z');
    expect(await runInstalmentJob(job(), june27)).toMatchObject({ reminded: 1, textsSent: 1, charged: 0 });
    expect(await runInstalmentJob(job(), june27)).toMatchObject({ reminded: 0, textsSent: 0, charged: 0 });
    expect((await mailTo(amelia.email)).at(-1)!.subject).toMatch(
      /^Reminder: instalment 2 for order .* is due on 01\/07\/2026$/,
    );
    // The SMS reminder the plan promised, to the contact number given at payment, kept in the outbox
    // (no SMS provider is keyed here) and shown in the development mailbox under that number.
    const texts = (await mailTo('+447700900123')).filter((m) => m.body.includes(reference));
    expect(texts.map((t) => [t.channel, t.body])).toEqual([
      [
        'sms',
        `Holdfast: instalment 2 of £126.00 for order ${reference} will be taken from your saved card on 01/07/2026.`,
      ],
    ]);
    const mailbox = await v.request({ method: 'GET', url: `/dev/mailbox?to=${encodeURIComponent('07700 900123')}` });
    expect(mailbox.statusCode).toBe(200);
    expect(mailbox.body).toContain('Text message to +447700900123');
    expect(mailbox.body).toContain(`for order ${reference} will be taken from your saved card on 01/07/2026.`);

    // 1 July, two runners at once: the second instalment is charged once.
    const july1 = new Date('2026-07-01T12:00:00Z');
    const [a, b] = await Promise.all([runInstalmentJob(job(), july1), runInstalmentJob(job(), july1)]);
    expect(a.charged + b.charged).toBe(1);
    expect(await chargesOf()).toHaveLength(2);
    expect((await v.checkout()).payment_plan_remaining).toBe(12_600);
    // Two of three instalments paid: no ticket is issued before the plan is paid in full.
    expect((await v.json('deliverToBitticket')).delivery_completed).toBe(true);
    expect(await w.database.db.select().from(tickets).where(eq(tickets.saleId, saleId))).toHaveLength(0);

    // A restart (a new runner, nothing in memory) on 31 July, twice at once again: the final one, once.
    const july31 = new Date('2026-07-31T12:00:00Z');
    const runs = await Promise.all([
      runInstalmentJob(job(), july31),
      runInstalmentJob(job(), july31),
      runInstalmentJob(job(), july31),
    ]);
    expect(runs.reduce((n, r) => n + r.charged, 0)).toBe(1);
    expect(runs.reduce((n, r) => n + r.completedPlans, 0)).toBe(1);
    expect(await chargesOf()).toHaveLength(3);
    expect((await runInstalmentJob(job(), new Date('2026-12-31T12:00:00Z'))).charged).toBe(0);
    expect(await chargesOf()).toHaveLength(3);

    expect((await v.checkout()).payment_plan_remaining).toBe(0);
    const [plan] = await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId));
    expect(plan!.status).toBe('completed');
    expect(await w.database.db.select().from(tickets).where(eq(tickets.saleId, saleId))).toHaveLength(2);
    const subjects = (await mailTo(amelia.email)).map((m) => m.subject);
    expect(subjects.filter((s) => /^Final instalment paid/.test(s))).toHaveLength(1);
    expect(
      subjects.filter((s) => /^Your tickets for order/.test(s) || /wallet/i.test(s)).length,
    ).toBeGreaterThanOrEqual(1);
  });

  it('retries a refused instalment 1 day and then 3 days later, then fails the plan and tells the buyer and the organiser', async () => {
    const tom = w.demo.users.notSubscribed;
    const { v, saleId } = await planBuyer(1, tom.id);
    const card = await newCard(v, SANDBOX_FAIL_LATER_CARD);
    expect(
      (
        await v.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '+44 (0)7700 900123',
          new_payment_method: card,
        })
      ).json(),
    ).toEqual({ status: 'success', url: null });
    const due = new Date('2026-07-01T12:00:00Z');
    expect(await runInstalmentJob(job(), due)).toMatchObject({ retrying: 1, charged: 0 });
    let [row] = await w.database.db
      .select()
      .from(instalments)
      .where(eq(instalments.saleId, saleId))
      .orderBy(asc(instalments.seq))
      .offset(1);
    expect(row!.attempts).toBe(1);
    expect(row!.nextAttemptAt.toISOString()).toBe(new Date(due.getTime() + DAY).toISOString());
    // Not before its time.
    expect(await runInstalmentJob(job(), new Date(due.getTime() + DAY - 1000))).toMatchObject({
      retrying: 0,
      failed: 0,
    });
    expect(await runInstalmentJob(job(), new Date(due.getTime() + DAY))).toMatchObject({ retrying: 1 });
    [row] = await w.database.db
      .select()
      .from(instalments)
      .where(eq(instalments.saleId, saleId))
      .orderBy(asc(instalments.seq))
      .offset(1);
    expect(row!.nextAttemptAt.toISOString()).toBe(new Date(due.getTime() + 4 * DAY).toISOString());
    expect(await runInstalmentJob(job(), new Date(due.getTime() + 4 * DAY))).toMatchObject({ failed: 1 });
    const [plan] = await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId));
    expect(plan!.status).toBe('failed');
    // A plan that failed was never paid in full: it has no ticket, whatever delivery is asked for.
    expect((await v.json('deliverToBitticket')).delivery_completed).toBe(true);
    expect(await w.database.db.select().from(tickets).where(eq(tickets.saleId, saleId))).toHaveLength(0);
    expect((await mailTo(tom.email)).map((m) => m.subject)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^We could not take instalment 2/),
        expect.stringMatching(/^Your payment plan for order .* has stopped$/),
      ]),
    );
    expect((await mailTo('bookings@meadowlands.example')).map((m) => m.subject)).toEqual([
      expect.stringMatching(/^Payment plan failed: order /),
    ]);
    // Nothing more is tried.
    expect(await runInstalmentJob(job(), new Date(due.getTime() + 30 * DAY))).toMatchObject({
      charged: 0,
      failed: 0,
      retrying: 0,
    });
  });

  it('answers redirect_to_url for a card whose bank must confirm; approved, the plan is set up; failed, nothing is and the step says so', async () => {
    for (const decision of ['approve', 'fail'] as const) {
      const { v, saleId } = await planBuyer(1);
      const card = await newCard(v, SANDBOX_CARDS.challenge);
      const res = await v.call('payWithInstalment', {
        instalment_option: '2',
        contact_number: '07700 900123',
        new_payment_method: card,
      });
      expect(res.json()).toEqual({ status: 'redirect_to_url', url: '/sandbox/plan/authenticate/' });
      expect((await v.checkout()).payment_complete).toBe(false);
      const confirmPage = await v.request({ method: 'GET', url: '/sandbox/plan/authenticate/' });
      expect(confirmPage.statusCode).toBe(200);
      expect(confirmPage.body).toContain('£94.50 today');
      const back = await v.request({
        method: 'POST',
        url: '/sandbox/plan/authenticate/',
        body: `decision=${decision}`,
      });
      expect(back.statusCode).toBe(303);
      expect(back.headers.location).toBe('/checkout/');
      const checkout = await v.checkout();
      const plans = await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId));
      if (decision === 'approve') {
        expect(checkout.payment_complete).toBe(true);
        expect(checkout.payment_plan_remaining).toBe(9450);
        expect(plans.map((p) => p.status)).toEqual(['active']);
      } else {
        expect(checkout.payment_complete).toBe(false);
        expect(plans).toEqual([]);
        expect(await v.json('getPaymentError')).toMatchObject({ payment_error: INSTALMENT_MESSAGES.error });
      }
      // Nothing is left to confirm.
      expect((await v.request({ method: 'GET', url: '/sandbox/plan/authenticate/' })).statusCode).toBe(404);
    }
  });

  it('refunds a first instalment in full when the booking fails after the charge, and sets no plan up', async () => {
    const code = `ONCE${randomUUID().slice(0, 6).toUpperCase()}`;
    await w.database.db.insert(discountCodes).values({ code, kind: 'percent', amount: 1000, usageLimit: 1 });
    // Tom holds the code's one use and begins a card payment, then lets his hold and its grace lapse.
    const tom = new Visitor(w.app);
    expect(
      (await tom.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` }))
        .statusCode,
    ).toBe(303);
    await tom.add({ [w.demo.plans.weekend]: 1 });
    expect(await tom.json('setCode', { code })).toEqual({ code_applied: true });
    expect((await tom.json('reserveTickets')).reserved).toBe(true);
    await tom.json('updateBasketState', { state: 'payment' });
    const secret = String((await tom.json('getStripeToken')).client_secret);
    w.clock.advance(3 * 3600_000);
    // Amelia takes the use that came free, and reserves with it.
    const amelia = new Visitor(w.app);
    expect(
      (await amelia.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.subscribedDark.id}` }))
        .statusCode,
    ).toBe(303);
    await amelia.add({ [w.demo.plans.weekend]: 1 });
    expect(await amelia.json('setCode', { code })).toEqual({ code_applied: true });
    expect((await amelia.json('reserveTickets')).reserved).toBe(true);
    await amelia.json('updateBasketState', { state: 'payment' });
    const reference = (await amelia.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    // Tom's late payment arrives: the stock is still free, so it is booked, spending the code's use.
    const paid = await tom.request({
      method: 'POST',
      url: '/sandbox/card/',
      body: new URLSearchParams({ secret, number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' }).toString(),
    });
    expect(paid.statusCode).toBe(303);
    expect((await tom.checkout()).payment_complete).toBe(true);

    // Amelia's plan: her card is charged, then the booking fails on the spent code.
    const card = await newCard(amelia);
    const res = await amelia.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: '07700 900123',
      new_payment_method: card,
    });
    expect(res.json()).toEqual({ status: 'unsuccessful', url: null });
    expect(await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, sale!.id))).toEqual([]);
    expect((await amelia.checkout()).payment_complete).toBe(false);
    // What her card was charged is given back in full, and she is told so.
    const charged = await w.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.cardId, card.id));
    expect(charged.map((c) => c.status)).toEqual(['refunded']);
    const [refund] = await w.database.db
      .select({ amount: paymentRefunds.amount, status: paymentRefunds.status, paid: payments.amount })
      .from(paymentRefunds)
      .innerJoin(payments, eq(payments.id, paymentRefunds.paymentId))
      .where(and(eq(payments.saleId, sale!.id), eq(payments.providerPaymentId, charged[0]!.id)));
    expect(refund).toEqual({ amount: charged[0]!.amount, status: 'done', paid: charged[0]!.amount });
    expect(await amelia.json('getPaymentError')).toMatchObject({ payment_error: INSTALMENT_MESSAGES.refunded });
    // Asking again sets nothing up either, and keeps nothing of what it charges.
    expect(
      (
        await amelia.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '07700 900123',
          new_payment_method: card,
        })
      ).json(),
    ).toEqual({ status: 'unsuccessful', url: null });
    const again = await w.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.cardId, card.id));
    expect(again.map((c) => c.status)).toEqual(['refunded', 'refunded']);
    expect((await amelia.checkout()).payment_complete).toBe(false);
  });

  it('a plan that replaces a card payment begun earlier reports no payment error for the paid sale', async () => {
    const { v } = await planBuyer(1);
    expect((await v.call('getStripeToken')).statusCode).toBe(200);
    const card = await newCard(v);
    expect(
      (
        await v.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '07700 900123',
          new_payment_method: card,
        })
      ).json(),
    ).toEqual({ status: 'success', url: null });
    expect((await v.checkout()).payment_complete).toBe(true);
    expect(await v.json('getPaymentError')).toMatchObject({ payment_error: null });
  });

  it('the sandbox processor refuses a key used before for another amount, as Stripe does, and answers the same charge for the same one', async () => {
    const { v } = await planBuyer(1);
    const card = await newCard(v);
    const key = `test:${randomUUID()}`;
    const charge = (amount: number) =>
      sandboxSavedCards().charge(w.database.db, {
        paymentMethodId: card.id,
        amount,
        currency: 'gbp',
        idempotencyKey: key,
        offSession: true,
        now: w.clock.now,
        description: 'test',
      });
    const first = await charge(1000);
    expect(first).toMatchObject({ status: 'succeeded' });
    expect(await charge(1000)).toEqual(first);
    await expect(charge(2500)).rejects.toThrow(/same parameters/);
    const taken = await w.database.db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, key));
    expect(taken.map((c) => [c.amount, c.status])).toEqual([[1000, 'succeeded']]);
  });

  it('lists only the signed-in buyer’s own saved cards', async () => {
    const guest = new Visitor(w.app);
    expect(await guest.json('getSavedPaymentMethods')).toEqual({
      payment_methods: [],
      public_key: 'pk_sandbox_holdfast',
    });
    const rows = await w.database.db.select().from(savedPaymentMethods);
    expect(rows.length).toBeGreaterThan(0);
  });

  it('a plan’s Gift Aid donation enters the charity’s schedule only once the plan is paid in full, dated that day', async () => {
    const charityId = w.demo.charity.id;
    await w.database.db.update(organisers).set({ charityId }).where(eq(organisers.id, w.demo.plans.organiser));
    try {
      const { v, saleId } = await planBuyer(1);
      expect(
        (
          await v.call('saveDonation', {
            amount_before_booking_fee: '2500' as never,
            charity_id: String(charityId) as never,
          })
        ).statusCode,
      ).toBe(200);
      expect(
        (
          await v.call('updateDonation', {
            is_gift_aid: 'true',
            uk_based: 'true',
            address1: '7 Levels Lane',
            postcode: 'TA7 0AA',
          } as never)
        ).statusCode,
      ).toBe(200);
      const card = await newCard(v);
      expect(
        (
          await v.call('payWithInstalment', {
            instalment_option: '2',
            contact_number: '07700 900123',
            new_payment_method: card,
          })
        ).json(),
      ).toEqual({ status: 'success', url: null });
      const ours = async () =>
        (await giftAidSchedule(w.database.db, charityId)).filter((r) => r.postcode === 'TA7 0AA');
      // Half the plan is paid: the donation is not yet received in full.
      expect(await ours()).toEqual([]);
      const [second] = await w.database.db
        .select()
        .from(instalments)
        .where(and(eq(instalments.saleId, saleId), eq(instalments.seq, 2)));
      const final = second!.dueAt;
      await runInstalmentJob(job(), final);
      const [plan] = await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId));
      expect(plan!.status).toBe('completed');
      expect((await ours()).map((r) => [r.house, r.amount, r.date.toISOString()])).toEqual([
        ['7', 2500, final.toISOString()],
      ]);
    } finally {
      await w.database.db.update(organisers).set({ charityId: null }).where(eq(organisers.id, w.demo.plans.organiser));
    }
  });
});
