/**
 * init_guest_email (spec 001's checkout object): the e-mail a sale already knows for a buyer no one
 * has signed in as, which the express form starts from: the express details given before (a card
 * declined, the step read again) or an address proven with its code on the sale. A signed-in
 * buyer's sale, or one that knows no address, has none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq } from 'drizzle-orm';
import { organiserPaymentSettings, outbox } from '../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('init_guest_email on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
    await w.database.db
      .insert(organiserPaymentSettings)
      .values([{ organiserId: w.demo.organisers.riverside, expressCheckout: true }]);
  });
  afterAll(async () => w?.close());

  async function expressGuest() {
    const v = new Visitor(w.app);
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    expect((await v.checkout()).express).toBe(true);
    return v;
  }

  it('is the express details’ e-mail once given, and none before', async () => {
    const v = await expressGuest();
    expect((await v.checkout()).init_guest_email).toBeNull();
    const email = `guest-${driver}-${Date.now()}@example.com`;
    const res = await v.call('setAccountDetails', {
      fullname: 'Gwen Guest',
      email,
      organiser_subscribed_marketing: {},
      ct_subscribed: 'false',
    } as never);
    expect(res.statusCode, res.body).toBe(200);
    expect((await v.checkout()).init_guest_email).toBe(email);
    // Another browser's checkout knows nothing of it.
    expect((await new Visitor(w.app).checkout()).init_guest_email).toBeNull();
  });

  it('is an address proven with its code on the sale', async () => {
    const v = await expressGuest();
    const email = `proven-${driver}-${Date.now()}@example.com`;
    expect((await v.call('sendOneTimeCode', { email })).statusCode).toBe(200);
    const [mail] = await w.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.recipient, email))
      .orderBy(desc(outbox.id))
      .limit(1);
    const code = /code is (\d{6})/.exec(mail!.body)![1]!;
    expect((await v.call('checkOneTimeCode', { email, code })).statusCode).toBe(200);
    const checkout = await v.checkout();
    expect(checkout.express).toBe(true);
    expect(checkout.init_guest_email).toBe(email);
  });

  it('is none for a signed-in buyer', async () => {
    const v = new Visitor(w.app);
    expect(
      (await v.request({ method: 'POST', url: '/signin/', body: `user_id=${w.demo.users.notSubscribed.id}` }))
        .statusCode,
    ).toBe(303);
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    expect((await v.checkout()).init_guest_email).toBeNull();
  });
});
