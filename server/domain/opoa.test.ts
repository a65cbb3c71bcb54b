/**
 * The checkout's opoa (spec 001's checkout object: provider, merchant_id, overridden) comes from the
 * basket organiser's own payment account, as the database holds it; get_opoa_users names that
 * organiser's team (the accounts with its organiser's role) to one of them, and to nobody else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { organiserMembers, organisers, users } from '../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';

describe.each(drivers)('the checkout’s payment account on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  it('names the organiser’s own account at its provider, and whether the platform set the provider', async () => {
    const v = new Visitor(w.app);
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 1 })).statusCode).toBe(200);
    expect((await v.checkout()).opoa).toEqual({
      provider: 'stripe',
      merchant_id: 'acct_demo_riverside_arts',
      overridden: false,
    });

    await w.database.db
      .update(organisers)
      .set({ paymentMerchantId: 'acct_1RiversideOwn', paymentProviderOverridden: true })
      .where(eq(organisers.id, w.demo.organisers.riverside));
    expect((await v.checkout()).opoa).toEqual({
      provider: 'stripe',
      merchant_id: 'acct_1RiversideOwn',
      overridden: true,
    });
    // An empty basket has none.
    expect((await new Visitor(w.app).checkout()).opoa).toBeNull();
  });

  async function signedInWithBasket(userId: number | null, ticketTypeId: number) {
    const v = new Visitor(w.app);
    if (userId !== null)
      expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` })).statusCode).toBe(303);
    expect((await v.add({ [ticketTypeId]: 1 })).statusCode).toBe(200);
    return v;
  }

  it('get_opoa_users names the paying organiser’s team to a member of it, and to nobody else', async () => {
    const { boxOffice, boxOfficeToo, notSubscribed, organiser } = w.demo.users;
    const team = [
      { id: boxOffice.id, full_name: 'Gareth Price' },
      { id: boxOfficeToo.id, full_name: 'Siân Morgan' },
    ];
    // A member of Harbour Folk Club's team, with a basket of its event: the team, this member too.
    const member = await signedInWithBasket(boxOffice.id, w.demo.tickets.folkSeat);
    expect(await member.json('getOpoaUsers')).toEqual({ opoa_users: team, full_name: 'Gareth Price' });
    expect(await (await signedInWithBasket(boxOfficeToo.id, w.demo.tickets.folkSeat)).json('getOpoaUsers')).toEqual({
      opoa_users: team,
      full_name: 'Siân Morgan',
    });

    // A buyer, a member of another organiser's team, and a visitor signed out are told no names.
    expect(await (await signedInWithBasket(notSubscribed.id, w.demo.tickets.folkSeat)).json('getOpoaUsers')).toEqual({
      opoa_users: [],
      full_name: 'Tom Okafor',
    });
    expect(await (await signedInWithBasket(organiser.id, w.demo.tickets.folkSeat)).json('getOpoaUsers')).toEqual({
      opoa_users: [],
      full_name: 'Olivia Organiser',
    });
    expect(await (await signedInWithBasket(null, w.demo.tickets.folkSeat)).json('getOpoaUsers')).toEqual({
      opoa_users: [],
      full_name: '',
    });

    // The member buying from another organiser is a buyer like any other there.
    expect(await (await signedInWithBasket(boxOffice.id, w.demo.tickets.jazzGeneral)).json('getOpoaUsers')).toEqual({
      opoa_users: [],
      full_name: 'Gareth Price',
    });
    // And without a sale there is no account to name a team of.
    const noSale = new Visitor(w.app);
    await noSale.request({ method: 'POST', url: '/signin/', body: `user_id=${boxOffice.id}` });
    expect(await noSale.json('getOpoaUsers')).toEqual({ opoa_users: [], full_name: 'Gareth Price' });

    // A new member of the team is named at once.
    const [row] = await w.database.db
      .insert(users)
      .values({ email: 'new.door@example.org', firstName: 'Dai', lastName: 'Door' })
      .returning();
    await w.database.db
      .insert(organiserMembers)
      .values({ organiserId: w.demo.organisers.folkClub, userId: row!.id, createdAt: w.clock.now });
    expect(((await member.json('getOpoaUsers')).opoa_users as { full_name: string }[]).map((u) => u.full_name)).toEqual(
      ['Dai Door', 'Gareth Price', 'Siân Morgan'],
    );
  });
});
