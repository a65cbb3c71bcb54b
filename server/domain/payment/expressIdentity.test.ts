/**
 * Express details and who a sale belongs to, over HTTP on each driver: a guest who gives the
 * e-mail of an existing account is refused until they sign in with that account's one-time code,
 * so nothing of theirs (the sale and its tickets, marketing consent, a Gift Aid declaration in the
 * account's name, a saved card) reaches the account; the holder who signs in with the code buys
 * with it as before. A new e-mail makes no account until its one-time code is proven: the sale
 * carries it for delivery only, the tickets are e-mailed to it, and the first sign-in with its code
 * makes the account, which then holds the paid purchase, its tickets and the choices made at express.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq, or } from 'drizzle-orm';
import {
  instalmentPlans,
  mailingList,
  marketingConsents,
  organiserPaymentSettings,
  outbox,
  sales,
  savedPaymentMethods,
  tickets,
  users,
} from '../../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../../test/harness.ts';
import { SANDBOX_CARDS } from '../../../contract/index.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { PROVE_ADDRESS_FIRST_MESSAGE } from './details.ts';

const GUEST_ADDRESS = { address1: '7 Mallory Lane', postcode: 'BS8 1QU' };

describe.each(drivers)('express details and existing accounts on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
    // The charity organiser and the payment-plan organiser sell by express checkout too.
    await w.database.db.insert(organiserPaymentSettings).values([
      { organiserId: w.demo.organisers.riverside, expressCheckout: true },
      { organiserId: w.demo.plans.organiser, expressCheckout: true },
    ]);
  });
  afterAll(async () => w?.close());

  const db = () => w.database.db;

  /** The code in the newest e-mail to this address, as its holder reads it. */
  async function codeSentTo(email: string): Promise<string> {
    const [mail] = await db()
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, email))
      .orderBy(desc(outbox.id))
      .limit(1);
    const match = /Your one-time sign in or registration code is (\d{6})/.exec(mail?.body ?? '');
    if (!match) throw new Error(`no code sent to ${email}`);
    return match[1]!;
  }

  /** Signs the visitor in the normal way: a code sent to the address, typed back. */
  async function signInWithCode(v: Visitor, email: string) {
    expect((await v.call('sendOneTimeCode', { email })).statusCode).toBe(200);
    expect(await v.json('checkOneTimeCode', { email, code: await codeSentTo(email) })).toEqual({ has_account: true });
  }

  /** A guest with `tickets` reserved on an express organiser, on the payment step; the sale's id. */
  async function expressGuest(tickets: Record<number, number>) {
    const v = new Visitor(w.app);
    expect((await v.add(tickets)).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    expect((await v.checkout()).express).toBe(true);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await db().select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    return { v, saleId: sale!.id };
  }

  /** A donation to the charity with Gift Aid at the given address. */
  async function donateWithGiftAid(v: Visitor, amount: number, address: { address1: string; postcode: string }) {
    expect(
      (
        await v.call('saveDonation', {
          amount_before_booking_fee: String(amount) as never,
          charity_id: String(w.demo.charity.id) as never,
        })
      ).statusCode,
    ).toBe(200);
    const form = { is_gift_aid: 'true', uk_based: 'true', ...address };
    expect((await v.call('updateDonation', form as never)).statusCode).toBe(200);
  }

  /** set_account_details with every box ticked (the basket's organiser's, Riverside's by default). */
  const accountDetails = (v: Visitor, fullname: string, email: string, organiserId = w.demo.organisers.riverside) =>
    v.call('setAccountDetails', {
      fullname,
      email,
      organiser_subscribed_marketing: { [String(organiserId)]: 'true' },
      ct_subscribed: 'true',
    } as never);

  /** Pays by the sandbox card and takes delivery, as the payment and delivery steps do. */
  async function payByCard(v: Visitor) {
    const token = await v.json('getStripeToken');
    const res = await v.request({
      method: 'POST',
      url: '/sandbox/card/',
      body: new URLSearchParams({
        secret: String(token.client_secret),
        number: SANDBOX_CARDS.success,
        expiry: '12/34',
        cvc: '123',
      }).toString(),
    });
    expect(res.statusCode).toBe(303);
    expect((await v.checkout()).payment_complete).toBe(true);
    await v.call('deliverToBitticket');
    await v.call('deliverToWallet');
  }

  const schedule = async () =>
    (
      await new Visitor(w.app).request({
        method: 'POST',
        url: '/charity/gift-aid/declarations.csv',
        body: `token=${encodeURIComponent(w.demo.charity.downloadToken)}`,
      })
    ).body;

  const codesOf = async (saleId: string) =>
    (await db().select({ code: tickets.code }).from(tickets).where(eq(tickets.saleId, saleId))).map((t) => t.code);

  async function walletOf(email: string): Promise<string> {
    const holder = new Visitor(w.app);
    await signInWithCode(holder, email);
    const res = await holder.request({ method: 'GET', url: '/account/wallet/' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(email);
    return res.body;
  }

  it('a guest giving an existing account’s e-mail is told to sign in with its code; the sale, consent, Gift Aid and tickets never reach the account', async () => {
    const victim = w.demo.users.notSubscribed;
    const { v: guest, saleId } = await expressGuest({ [w.demo.tickets.jazzGeneral]: 1 });
    await donateWithGiftAid(guest, 2500, GUEST_ADDRESS);
    const refused = await accountDetails(guest, 'Mallory Guest', ` ${victim.email.toUpperCase()} `);
    // The guest carries on over HTTP regardless: no payment starts for a sale that names no buyer, and nothing is delivered.
    expect((await guest.call('getStripeToken')).statusCode).toBe(409);
    await guest.call('deliverToBitticket');
    await guest.call('deliverToWallet');

    const [sale] = await db().select().from(sales).where(eq(sales.id, saleId));
    const [account] = await db().select().from(users).where(eq(users.id, victim.id));
    const consents = await db()
      .select()
      .from(marketingConsents)
      .where(
        or(
          eq(marketingConsents.saleId, saleId),
          eq(marketingConsents.userId, victim.id),
          eq(marketingConsents.email, victim.email),
        ),
      );
    const listed = await db().select().from(mailingList).where(eq(mailingList.email, victim.email));
    const theirTickets = await db()
      .select()
      .from(tickets)
      .where(and(eq(tickets.saleId, saleId), eq(tickets.userId, victim.id)));
    const wallet = await walletOf(victim.email);
    const csv = await schedule();

    expect.soft(sale!.userId, 'the sale is not the account’s').not.toBe(victim.id);
    expect.soft(consents, 'no consent recorded for the account').toEqual([]);
    expect.soft(account!.subscribed, 'not subscribed to the newsletter').toBe(false);
    expect.soft(listed, 'not on the mailing list').toEqual([]);
    expect
      .soft(csv, 'no Gift Aid declaration in the account’s name')
      .not.toContain(`${victim.firstName},${victim.lastName}`);
    expect.soft(csv).not.toContain(GUEST_ADDRESS.postcode);
    expect.soft(theirTickets, 'no ticket of the sale is the account’s').toEqual([]);
    expect.soft(wallet, 'the guest’s order is not in the account’s wallet').not.toContain(sale!.reference!);
    expect
      .soft([refused.statusCode, refused.json()])
      .toEqual([409, { error: PAYMENT_MESSAGES.existingAccount, type: 'sign_in' }]);
  });

  it('a guest giving an existing account’s e-mail cannot save a card to it or set up a plan in its name', async () => {
    const victim = w.demo.users.subscribedDark;
    const { v: guest, saleId } = await expressGuest({ [w.demo.plans.weekend]: 1 });
    const refused = await accountDetails(guest, 'Mallory Guest', victim.email, w.demo.plans.organiser);
    const card = (
      await guest.call('saveSandboxCard', { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' })
    ).json() as Record<string, unknown>;
    const plan = await guest.call('payWithInstalment', {
      instalment_option: '2',
      contact_number: '07700 900123',
      new_payment_method: { ...card, make_default_payment_method: 'true' },
    } as never);

    const cards = await db().select().from(savedPaymentMethods).where(eq(savedPaymentMethods.userId, victim.id));
    const plans = await db()
      .select()
      .from(instalmentPlans)
      .where(or(eq(instalmentPlans.userId, victim.id), eq(instalmentPlans.saleId, saleId)));
    const [sale] = await db().select().from(sales).where(eq(sales.id, saleId));

    expect.soft(cards, 'no card saved to the account').toEqual([]);
    expect.soft(plans, 'no plan set up').toEqual([]);
    expect.soft(sale!.userId, 'the sale is not the account’s').not.toBe(victim.id);
    expect.soft(sale!.paidAt, 'nothing booked').toBeNull();
    expect.soft(plan.statusCode).toBe(409);
    expect
      .soft([refused.statusCode, refused.json()])
      .toEqual([409, { error: PAYMENT_MESSAGES.existingAccount, type: 'sign_in' }]);
  });

  it('a signed-in buyer cannot move the sale to another existing account with express details either', async () => {
    const victim = w.demo.users.notSubscribed;
    const v = new Visitor(w.app);
    await signInWithCode(v, w.demo.users.subscribedDark.email);
    expect((await v.add({ [w.demo.tickets.trail10k]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const refused = await v.call('setAccountDetails', {
      fullname: 'Mallory Guest',
      email: victim.email,
      contact_number: '07700 900123',
    } as never);
    expect([refused.statusCode, refused.json()]).toEqual([
      409,
      { error: PAYMENT_MESSAGES.existingAccount, type: 'sign_in' },
    ]);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await db().select().from(sales).where(eq(sales.reference, reference));
    expect(sale!.userId).toBe(w.demo.users.subscribedDark.id);
  });

  it('the account holder who signs in with the code gets the sale, the consent, the Gift Aid in their name and the tickets', async () => {
    const holder = w.demo.users.notSubscribed;
    const { v, saleId } = await expressGuest({ [w.demo.tickets.jazzGeneral]: 2 });
    const home = { address1: '21 Okafor Row', postcode: 'BS3 4HH' };
    await donateWithGiftAid(v, 3000, home);
    expect((await accountDetails(v, 'Tom Okafor', holder.email)).statusCode).toBe(409);

    // The normal sign-in with a code, on this sale: it becomes the holder's and they are signed in.
    await signInWithCode(v, holder.email);
    expect((await v.checkout()).express).toBe(false);
    // The payment step's details, now as the account: accepted, consent recorded.
    expect((await accountDetails(v, 'Tom Okafor', holder.email)).statusCode).toBe(200);
    await payByCard(v);

    const [sale] = await db().select().from(sales).where(eq(sales.id, saleId));
    expect(sale!.userId).toBe(holder.id);
    const consents = await db()
      .select()
      .from(marketingConsents)
      .where(and(eq(marketingConsents.saleId, saleId), eq(marketingConsents.userId, holder.id)));
    expect(consents.map((c) => [c.topic, c.organiserId, c.subscribed]).sort()).toEqual(
      [
        ['community', null, true],
        ['events', null, false],
        ['organiser', w.demo.organisers.riverside, true],
      ].sort(),
    );
    expect((await db().select().from(users).where(eq(users.id, holder.id)))[0]!.subscribed).toBe(true);
    expect(await schedule()).toContain(`,${holder.firstName},${holder.lastName},21,${home.postcode},,,`);
    const wallet = await walletOf(holder.email);
    const codes = await codesOf(saleId);
    expect(codes).toHaveLength(2);
    for (const code of codes) expect(wallet).toContain(code);
  });

  it('a new e-mail makes no account until its code is proven; the tickets go to the address, and the first sign-in makes the account with the sale, tickets, consent and Gift Aid', async () => {
    const email = 'first.time@example.com';
    const { v, saleId } = await expressGuest({ [w.demo.tickets.jazzGeneral]: 1 });
    await donateWithGiftAid(v, 2500, { address1: '3 New Street', postcode: 'BS1 5TT' });
    expect((await accountDetails(v, 'Fran Newcombe', email)).statusCode).toBe(200);
    // A second Pay click (after a declined card, say) sends the same details again.
    expect((await accountDetails(v, 'Fran Newcombe', email)).statusCode).toBe(200);
    expect(await db().select().from(users).where(eq(users.email, email)), 'no account for an unproven address').toEqual(
      [],
    );
    expect(
      await db().select().from(mailingList).where(eq(mailingList.email, email)),
      'not on the mailing list yet',
    ).toEqual([]);
    await payByCard(v);

    // Delivered to the address all the same: the wallet e-mail carries the ticket's code.
    const [pending] = await db().select().from(sales).where(eq(sales.id, saleId));
    expect(pending).toMatchObject({ userId: null, buyerEmail: email, buyerName: 'Fran Newcombe' });
    const [issued] = await db().select().from(tickets).where(eq(tickets.saleId, saleId));
    expect(issued).toMatchObject({ userId: null, holderName: 'Fran Newcombe' });
    const wallets = (await db().select().from(outbox).where(eq(outbox.recipient, email))).filter((m) =>
      m.body.includes(issued!.code),
    );
    expect(wallets).toHaveLength(1);
    expect(await v.json('getSimpleInfo')).toMatchObject({ sale_email: email });

    // The first sign-in with the address's code, in the browser that bought (its hold long over), makes the account from the name given there.
    w.clock.advance(3600 * 1000);
    await signInWithCode(v, email);
    const later = v;
    const [made] = await db().select().from(users).where(eq(users.email, email));
    expect(made).toMatchObject({ firstName: 'Fran', lastName: 'Newcombe', subscribed: true });
    const [sale] = await db().select().from(sales).where(eq(sales.id, saleId));
    expect(sale).toMatchObject({ userId: made!.id, buyerEmail: null });
    const consents = await db().select().from(marketingConsents).where(eq(marketingConsents.saleId, saleId));
    expect(consents.find((c) => c.topic === 'organiser')).toMatchObject({
      userId: made!.id,
      organiserId: w.demo.organisers.riverside,
      subscribed: true,
    });
    expect(await db().select().from(mailingList).where(eq(mailingList.email, email))).toHaveLength(1);
    expect(await schedule()).toContain(',Fran,Newcombe,3,BS1 5TT,,,');
    const [ticket] = await db().select().from(tickets).where(eq(tickets.saleId, saleId));
    expect(ticket!.userId).toBe(made!.id);
    const wallet = await later.request({ method: 'GET', url: '/account/wallet/' });
    expect(wallet.body).toContain(ticket!.code);
  });

  it('proven on another device, the holder gives their own name; the paid purchase and its tickets become theirs, the choices typed at express do not', async () => {
    const email = 'other.device@example.com';
    const { v, saleId } = await expressGuest({ [w.demo.tickets.jazzGeneral]: 1 });
    expect((await accountDetails(v, 'Typed By Someone', email)).statusCode).toBe(200);
    await payByCard(v);

    const holder = new Visitor(w.app);
    expect(
      (await holder.request({ method: 'POST', url: '/signin/', body: new URLSearchParams({ email }).toString() }))
        .statusCode,
    ).toBe(200);
    const asked = await holder.request({
      method: 'POST',
      url: '/signin/code/',
      body: new URLSearchParams({ email, code: await codeSentTo(email) }).toString(),
    });
    expect(asked.statusCode).toBe(200);
    expect(
      await db().select().from(users).where(eq(users.email, email)),
      'no account before the holder gives their name',
    ).toEqual([]);
    const named = await holder.request({
      method: 'POST',
      url: '/signin/name/',
      body: new URLSearchParams({ email, fullname: 'Olive Holder' }).toString(),
    });
    expect(named.statusCode).toBe(303);

    const [made] = await db().select().from(users).where(eq(users.email, email));
    expect(made).toMatchObject({ firstName: 'Olive', lastName: 'Holder', subscribed: false });
    expect((await db().select().from(sales).where(eq(sales.id, saleId)))[0]!.userId).toBe(made!.id);
    const [ticket] = await db().select().from(tickets).where(eq(tickets.saleId, saleId));
    expect(ticket!.userId).toBe(made!.id);
    expect(await db().select().from(marketingConsents).where(eq(marketingConsents.email, email))).toEqual([]);
    expect(await db().select().from(mailingList).where(eq(mailingList.email, email))).toEqual([]);
    expect((await holder.request({ method: 'GET', url: '/account/wallet/' })).body).toContain(ticket!.code);
  });

  it('an address someone else gives at express gets no account, and their unpaid basket never becomes the address’s', async () => {
    const email = 'not.yet.theirs@example.com';
    const { v: stranger, saleId } = await expressGuest({ [w.demo.tickets.jazzGeneral]: 1 });
    expect((await accountDetails(stranger, 'Mallory Guest', email)).statusCode).toBe(200);
    expect(await db().select().from(users).where(eq(users.email, email))).toEqual([]);

    // The address's holder signs in on their own device: their account is theirs alone.
    const holder = new Visitor(w.app);
    expect((await holder.call('sendOneTimeCode', { email })).statusCode).toBe(200);
    expect(await holder.json('checkOneTimeCode', { email, code: await codeSentTo(email) })).toEqual({
      has_account: false,
    });
    const [sale] = await db().select().from(sales).where(eq(sales.id, saleId));
    expect(sale!.userId).toBeNull();
    expect(await db().select().from(users).where(eq(users.email, email))).toEqual([]);
  });

  it('where the checkout offers no express checkout, details for a new address are refused with 403 and make nothing', async () => {
    const email = 'no.express@example.com';
    const v = new Visitor(w.app);
    expect((await v.add({ [w.demo.tickets.trail10k]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    expect((await v.checkout()).express).toBe(false);
    const refused = await v.call('setAccountDetails', {
      fullname: 'Nora Express',
      email,
      contact_number: '07700 900123',
      organiser_subscribed_marketing: { [String(w.demo.organisers.peak)]: 'true' },
      ct_subscribed: 'true',
    } as never);
    expect([refused.statusCode, refused.json()]).toEqual([
      403,
      { error: PROVE_ADDRESS_FIRST_MESSAGE, type: 'sign_in' },
    ]);
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await db().select().from(sales).where(eq(sales.reference, reference));
    expect(sale).toMatchObject({ userId: null, buyerEmail: null, buyerName: null });
    expect(await db().select().from(users).where(eq(users.email, email))).toEqual([]);
    expect(await db().select().from(marketingConsents).where(eq(marketingConsents.email, email))).toEqual([]);
  });
});
