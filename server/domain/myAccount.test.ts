/**
 * My account through the real app: a buyer whose instalment was refused follows the e-mail's
 * account-settings link, gives a new card there, and the next run of the job charges it; a plan
 * stopped after its retries is resumed by a new card; another buyer cannot touch the plan; the
 * receipt, a cancelled transfer, saved cards, a saved address made the default, and signing out
 * of every other device.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, asc, eq } from 'drizzle-orm';
import {
  instalmentPlans,
  instalments,
  outbox,
  sales,
  savedPaymentMethods,
  transfers,
  userAddresses,
} from '../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { SANDBOX_CARDS } from '../../contract/index.ts';
import { runInstalmentJob, type JobDeps } from './instalments/job.ts';
import { sandboxSavedCards } from './instalments/offSession.ts';
import { SANDBOX_FAIL_LATER_CARD } from './instalments/sandboxCards.ts';
import { completeSale } from './completeSale.ts';
import { ACCOUNT_MESSAGES } from './myAccount.ts';

const DAY = 86_400_000;
const HTML = { accept: 'text/html' };

describe.each(drivers)('my account on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  const PUBLIC = 'http://holdfast.test';
  const job = (): JobDeps => ({
    db: w.database.db,
    cards: sandboxSavedCards(),
    mail: { mailer: { transport: null, from: 'test@holdfast.test' }, brandName: 'Holdfast', publicUrl: PUBLIC },
    walletUrl: `${PUBLIC}/account/wallet/`,
  });
  const mailTo = (email: string) =>
    w.database.db.select().from(outbox).where(eq(outbox.recipient, email)).orderBy(asc(outbox.id));

  async function signedIn(userId: number) {
    const v = new Visitor(w.app);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    return v;
  }

  /** A plan of 2 on a card approved today and refused later; its sale's id and reference. */
  async function failingPlan(userId: number) {
    const v = await signedIn(userId);
    expect((await v.add({ [w.demo.plans.weekend]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    const card = (
      await v.call('saveSandboxCard', { number: SANDBOX_FAIL_LATER_CARD, expiry: '12/34', cvc: '123' })
    ).json();
    expect(
      (
        await v.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '07700 900123',
          new_payment_method: card,
        })
      ).json(),
    ).toEqual({ status: 'success', url: null });
    return { v, saleId: sale!.id, reference };
  }

  const second = async (saleId: string) =>
    (
      await w.database.db
        .select()
        .from(instalments)
        .where(and(eq(instalments.saleId, saleId), eq(instalments.seq, 2)))
    )[0]!;

  const newCard = (v: Visitor, reference: string, number: string = SANDBOX_CARDS.success) =>
    v.request({
      method: 'POST',
      url: `/account/plans/${reference}/card/`,
      body: new URLSearchParams({ number, expiry: '12/34', cvc: '123', make_default: 'true' }).toString(),
      headers: HTML,
    });

  it('asks a browser not signed in to sign in, and comes back to the page asked for', async () => {
    const page = await new Visitor(w.app).request({
      method: 'GET',
      url: '/account/plans/HF-NOPE/card/',
      headers: HTML,
    });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('/signin/?next=%2Faccount%2Fplans%2FHF-NOPE%2Fcard%2F');
    const posted = await new Visitor(w.app).request({
      method: 'POST',
      url: '/account/signout-others/',
      body: '',
      headers: HTML,
    });
    expect(posted.statusCode).toBe(401);
  });

  it('a refused instalment: the e-mail links to the plan’s card page, a new card there is charged on the next run', async () => {
    const tom = w.demo.users.notSubscribed;
    const { v, saleId, reference } = await failingPlan(tom.id);
    const due = (await second(saleId)).dueAt;
    expect(await runInstalmentJob(job(), due)).toMatchObject({ retrying: 1, charged: 0 });

    const retry = (await mailTo(tom.email)).find((m) =>
      m.subject.startsWith(`We could not take instalment 2 for order ${reference}`),
    );
    const link = `${PUBLIC}/account/plans/${reference}/card/`;
    expect(retry!.body).toContain(`You can update your payment method in your account settings: ${link}`);
    const schedule = (await mailTo(tom.email)).find(
      (m) => m.subject === `Your payment schedule for order ${reference}`,
    );
    expect(schedule!.body).toContain(`/account/plans/${reference}/card/`);

    const account = await v.request({ method: 'GET', url: '/account/', headers: HTML });
    expect(account.body).toContain(`Order ${reference}`);
    expect(account.body).toContain('Payment 2 was refused');
    expect(account.body).toContain(`href="/account/plans/${reference}/card/"`);
    const form = await v.request({ method: 'GET', url: `/account/plans/${reference}/card/`, headers: HTML });
    expect(form.body).toContain('taken from the new card as soon as it is saved');

    // A card the sandbox refuses to save says why, and changes nothing.
    const wrong = await newCard(v, reference, '4242424242424241');
    expect(wrong.statusCode).toBe(422);
    expect(wrong.body).toContain('Your card number is incorrect.');

    const saved = await newCard(v, reference);
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`/account/?done=card-changed#plan-${reference}`);
    const [plan] = await w.database.db
      .select({ plan: instalmentPlans, card: savedPaymentMethods })
      .from(instalmentPlans)
      .innerJoin(savedPaymentMethods, eq(savedPaymentMethods.id, instalmentPlans.paymentMethodId))
      .where(eq(instalmentPlans.saleId, saleId));
    expect(plan!.card.last4).toBe('4242');
    expect(plan!.card.isDefault).toBe(true);
    const shown = await v.request({ method: 'GET', url: saved.headers.location as string, headers: HTML });
    expect(shown.body).toContain(ACCOUNT_MESSAGES.cardChanged);

    // The next run takes the payment from the new card at once, and the plan is paid in full.
    expect(await runInstalmentJob(job(), new Date(due.getTime() + 1000))).toMatchObject({
      charged: 1,
      completedPlans: 1,
    });
    expect((await second(saleId)).status).toBe('paid');
  });

  it('a stopped plan is resumed by a new card before its event; another buyer cannot change it', async () => {
    const amelia = w.demo.users.subscribedDark;
    const { v, saleId, reference } = await failingPlan(amelia.id);
    const due = (await second(saleId)).dueAt;
    for (const at of [0, DAY, 4 * DAY]) await runInstalmentJob(job(), new Date(due.getTime() + at));
    expect(
      (await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId)))[0]!.status,
    ).toBe('failed');
    const stopped = (await mailTo(amelia.email)).find(
      (m) => m.subject === `Your payment plan for order ${reference} has stopped`,
    );
    expect(stopped!.body).toContain(
      `resume the plan with a new card in your account settings: ${PUBLIC}/account/plans/${reference}/card/`,
    );

    // Someone else's browser: not found, nothing changed.
    const tom = await signedIn(w.demo.users.notSubscribed.id);
    const theirs = await newCard(tom, reference);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toContain(ACCOUNT_MESSAGES.planNotFound);
    expect(
      (await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId)))[0]!.status,
    ).toBe('failed');

    const resumed = await newCard(v, reference);
    expect(resumed.headers.location).toBe(`/account/?done=plan-resumed#plan-${reference}`);
    expect(
      (await w.database.db.select().from(instalmentPlans).where(eq(instalmentPlans.saleId, saleId)))[0]!.status,
    ).toBe('active');
    expect(await runInstalmentJob(job(), new Date(due.getTime() + 5 * DAY))).toMatchObject({
      charged: 1,
      completedPlans: 1,
    });

    // The card that pays a plan cannot be removed; an unknown id is refused in words.
    const cards = await w.database.db
      .select()
      .from(savedPaymentMethods)
      .where(eq(savedPaymentMethods.userId, amelia.id));
    const used = cards.find((c) => c.last4 === '4242')!;
    const refused = await v.request({
      method: 'POST',
      url: `/account/cards/${used.id}/remove/`,
      body: '',
      headers: HTML,
    });
    expect(refused.statusCode).toBe(409);
    expect(
      (await v.request({ method: 'POST', url: '/account/cards/abc/remove/', body: '', headers: HTML })).statusCode,
    ).toBe(400);
    expect(
      (await tom.request({ method: 'POST', url: `/account/cards/${used.id}/default/`, body: '', headers: HTML }))
        .statusCode,
    ).toBe(404);
  });

  it('shows a receipt of the buyer’s own order only, and cancels a transfer nobody accepted', async () => {
    const tom = w.demo.users.notSubscribed;
    const v = await signedIn(tom.id);
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 2 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    expect((await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now))).booked).toBe(true);
    expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });

    const receipt = await v.request({ method: 'GET', url: `/account/orders/${reference}/`, headers: HTML });
    expect(receipt.statusCode).toBe(200);
    expect(receipt.body).toContain(`Receipt for order ${reference}`);
    expect(receipt.body).toContain('2 × General admission');
    expect(receipt.body).toMatch(/Total<\/th><td><strong>£\d/);
    const stranger = await signedIn(w.demo.users.subscribedDark.id);
    expect(
      (await stranger.request({ method: 'GET', url: `/account/orders/${reference}/`, headers: HTML })).statusCode,
    ).toBe(404);

    const ticketId = w.demo.tickets.jazzGeneral;
    expect(
      (
        await v.call('setTransfers', {
          transfers: [
            {
              ticket_id: ticketId,
              name: 'Grace Hopper',
              email: `grace-${driver}@example.com`,
              qty: 1,
              is_gift: false,
              send_gift: 'Schedule',
              delivery_date: '',
              delivery_time: '',
              message: '',
            },
          ],
        })
      ).statusCode,
    ).toBe(200);
    const [t] = await w.database.db.select().from(transfers).where(eq(transfers.saleId, sale!.id));
    const account = await v.request({ method: 'GET', url: '/account/', headers: HTML });
    expect(account.body).toContain('Cancel the transfer to Grace Hopper');
    expect(
      (await stranger.request({ method: 'POST', url: `/account/transfers/${t!.id}/cancel/`, body: '', headers: HTML }))
        .statusCode,
    ).toBe(404);
    const cancelled = await v.request({
      method: 'POST',
      url: `/account/transfers/${t!.id}/cancel/`,
      body: '',
      headers: HTML,
    });
    expect(cancelled.statusCode).toBe(303);
    expect(await w.database.db.select().from(transfers).where(eq(transfers.id, t!.id))).toHaveLength(0);
    // Its link no longer gives the tickets.
    expect(
      (await new Visitor(w.app).request({ method: 'GET', url: `/transfers/accept/${t!.token}/` })).statusCode,
    ).toBe(404);
  });

  it('makes one of the buyer’s saved addresses their default, one at a time, and no one else’s', async () => {
    const tom = w.demo.users.notSubscribed;
    const base = { userId: tom.id, firstName: 'Tom', lastName: 'Okafor', town: 'Leeds', country: '1' };
    const [older, newer] = await w.database.db
      .insert(userAddresses)
      .values([
        { ...base, address1: '2 Briggate', postcode: 'LS1 6HD', createdAt: new Date(w.clock.now.getTime() - DAY) },
        { ...base, address1: '9 Call Lane', postcode: 'LS1 7DH', createdAt: w.clock.now },
      ])
      .returning();
    const v = await signedIn(tom.id);
    const listed = async () =>
      ((await v.json('getUserAddresses')).existing_addresses as { id: number; is_default: boolean }[]).map((a) => [
        a.id,
        a.is_default,
      ]);
    // None is the default until the buyer makes one so; the newest comes first.
    expect(await listed()).toEqual([
      [newer!.id, false],
      [older!.id, false],
    ]);
    const page = (await v.request({ method: 'GET', url: '/account/', headers: HTML })).body;
    expect(page).toContain(`action="/account/addresses/${older!.id}/default/"`);
    expect(page).toContain(`action="/account/addresses/${newer!.id}/default/"`);

    const made = await v.request({
      method: 'POST',
      url: `/account/addresses/${older!.id}/default/`,
      body: '',
      headers: HTML,
    });
    expect(made.statusCode).toBe(303);
    expect(made.headers.location).toBe('/account/?done=address-default#saved');
    expect(await listed()).toEqual([
      [newer!.id, false],
      [older!.id, true],
    ]);
    const after = (await v.request({ method: 'GET', url: made.headers.location as string, headers: HTML })).body;
    expect(after).toContain('The address is now your default: the checkout starts from it.');
    expect(after).toContain('2 Briggate, Leeds, LS1 6HD, United Kingdom <strong>(default)</strong>');
    expect(after).not.toContain(`action="/account/addresses/${older!.id}/default/"`);

    // Another made the default: the first no longer is.
    expect(
      (await v.request({ method: 'POST', url: `/account/addresses/${newer!.id}/default/`, body: '', headers: HTML }))
        .statusCode,
    ).toBe(303);
    expect(await listed()).toEqual([
      [newer!.id, true],
      [older!.id, false],
    ]);

    // Another buyer's address, or no address at all, is refused in words and changes nothing.
    const amelia = await signedIn(w.demo.users.subscribedDark.id);
    const theirs = await amelia.request({
      method: 'POST',
      url: `/account/addresses/${older!.id}/default/`,
      body: '',
      headers: HTML,
    });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).toContain('That saved address is no longer available.');
    const nonsense = await v.request({
      method: 'POST',
      url: '/account/addresses/first/default/',
      body: '',
      headers: HTML,
    });
    expect(nonsense.statusCode).toBe(400);
    expect(nonsense.body).toContain('That is not one of yours.');
    expect(await listed()).toEqual([
      [newer!.id, true],
      [older!.id, false],
    ]);

    // The default removed: none is, and the newest left is where the checkout starts.
    expect(
      (await v.request({ method: 'POST', url: `/account/addresses/${newer!.id}/remove/`, body: '', headers: HTML }))
        .statusCode,
    ).toBe(303);
    expect(await listed()).toEqual([[older!.id, false]]);
  });

  it('signs out every other device and keeps this one signed in', async () => {
    const userId = w.demo.users.subscribedDark.id;
    const here = await signedIn(userId);
    const there = await signedIn(userId);
    expect((await there.request({ method: 'GET', url: '/account/', headers: HTML })).body).toContain(
      'Sign out of every other device',
    );
    const res = await here.request({ method: 'POST', url: '/account/signout-others/', body: '', headers: HTML });
    expect(res.statusCode).toBe(303);
    expect((await here.request({ method: 'GET', url: res.headers.location as string, headers: HTML })).body).toContain(
      'Every other device is signed out. This one stays signed in.',
    );
    const elsewhere = await there.request({ method: 'GET', url: '/account/', headers: HTML });
    expect(elsewhere.body).toContain('Sign in to see your orders');
  });
});
