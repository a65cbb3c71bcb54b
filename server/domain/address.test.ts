/**
 * Addresses through the HTTP calls (spec 000 §3, §5, §6, §7, §8; spec 001 §5, §7, §8): the
 * countries and states the server owns, the lookup's local index and its UK address API adapter,
 * saved addresses deleted only by their owner, set_delivery_address refusing bad input with a
 * clear 4xx and nothing changed, and require_delivery_address told truthfully.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { saleDeliveryAddresses, userAddresses } from '../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { getAddressFinder, forgiving } from './addressLookup.ts';
import { databaseDigest } from '../test/digest.ts';
import type { RequestOf } from '../../contract/index.ts';

const UNABLE = 'Unable to set the delivery Address. Please try again later';
const FROM = 'Who is the gift voucher from?';
const TO = 'Who is the gift voucher for?';

const NEW_ADDRESS = {
  selected_user_address_id: 'new',
  first_name: 'Ada',
  last_name: 'Lovelace',
  address_1: '12 Quay Street',
  address_2: '',
  town: 'Bristol',
  postcode: 'BS1 4RN',
  country: '1',
  state: '',
};

describe.each(drivers)('addresses on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  async function signedIn(userId: number) {
    const v = new Visitor(w.app);
    const res = await v.request({ method: 'POST', url: '/signin/', body: `user_id=${userId}` });
    expect(res.statusCode).toBe(303);
    return v;
  }

  async function reserved(
    v: Visitor,
    tickets: Record<number, number>,
    vouchers: { id: number; qty: number; value: number }[] = [],
  ) {
    await v.add(tickets, vouchers);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    return v;
  }

  const setAddress = (v: Visitor, body: Record<string, unknown>) =>
    v.call('setDeliveryAddress', body as RequestOf<'setDeliveryAddress'>);
  const storedFor = async (v: Visitor) => {
    const checkout = await v.checkout();
    expect(checkout.sale_reference).not.toBeNull();
    const rows = await w.database.db.select().from(saleDeliveryAddresses);
    return rows;
  };

  it('owns the countries (UK as 1, USA as 2) and the US states', async () => {
    const body = await new Visitor(w.app).json('getAddressAllCountriesStates');
    const countries = body.countries as { id: string; name: string; iso_code: string }[];
    expect(countries[0]).toEqual({ id: '1', name: 'United Kingdom', iso_code: 'GB' });
    expect(countries[1]).toEqual({ id: '2', name: 'United States', iso_code: 'US' });
    expect(countries.length).toBeGreaterThan(240);
    expect(new Set(countries.map((c) => c.id)).size).toBe(countries.length);
    const states = body.states as { id: string; name: string; country: string }[];
    expect(states).toContainEqual({ id: 'CA', name: 'California', country: '2' });
    expect(states).toHaveLength(51);
  });

  it('finds seeded UK and US addresses by postcode, with or without its space, or by words', async () => {
    const v = new Visitor(w.app);
    const byPostcode = (await v.json('lookupAddress', { address: 'BS1 4RN' })).possible_addresses as {
      formatted_address: string;
      post_code: string;
    }[];
    expect(byPostcode.length).toBe(10);
    expect(byPostcode.every((a) => a.post_code === 'BS1 4RN')).toBe(true);
    expect(byPostcode[0]).toEqual({
      address_line_1: '1 Quay Street',
      address_line_2: '',
      town: 'Bristol',
      post_code: 'BS1 4RN',
      country: '1',
      state: '',
      formatted_address: '1 Quay Street, Bristol, BS1 4RN',
    });
    expect(((await v.json('lookupAddress', { address: 'bs14rn' })).possible_addresses as unknown[]).length).toBe(10);
    const words = (await v.json('lookupAddress', { address: '310 valencia' })).possible_addresses as Record<
      string,
      string
    >[];
    expect(words).toEqual([
      expect.objectContaining({
        address_line_1: '310 Valencia Street',
        town: 'San Francisco',
        state: 'CA',
        post_code: '94110',
        country: '2',
      }),
    ]);
  });

  it('answers an empty list under 3 characters, for no match and for wildcards; refuses bad input with a 400', async () => {
    const v = new Visitor(w.app);
    for (const address of ['BS', 'Nowhere Lane Atlantis', '%%%', '___']) {
      const res = await v.call('lookupAddress', { address });
      expect([res.statusCode, res.json()]).toEqual([200, { possible_addresses: [] }]);
    }
    for (const address of ['x'.repeat(101), 'BS1\u0000']) {
      const res = await v.call('lookupAddress', { address });
      expect(res.statusCode).toBe(400);
      expect((res.json() as { error: string }).error).toMatch(/^Invalid address: /);
    }
  });

  it('uses the UK address API when keyed: suggestions, then each full address; its failures are an empty list', async () => {
    const asked: string[] = [];
    const fakeFetch = (async (url: string) => {
      asked.push(url);
      if (url.includes('/autocomplete/'))
        return Response.json({ suggestions: [{ id: 'abc', address: '10 Downing Street, London' }] });
      return Response.json({
        postcode: 'SW1A 2AA',
        line_1: '10 Downing Street',
        line_2: '',
        line_3: '',
        town_or_city: 'London',
      });
    }) as unknown as typeof fetch;
    const finder = getAddressFinder('key 1', fakeFetch, 'https://api.example');
    expect(await finder.find('SW1A 2AA')).toEqual([
      {
        address_line_1: '10 Downing Street',
        address_line_2: '',
        town: 'London',
        post_code: 'SW1A 2AA',
        country: '1',
        state: '',
        formatted_address: '10 Downing Street, London, SW1A 2AA',
      },
    ]);
    expect(asked).toEqual([
      'https://api.example/autocomplete/SW1A%202AA?all=true&api-key=key%201',
      'https://api.example/get/abc?api-key=key%201',
    ]);
    const failing = forgiving(
      getAddressFinder('k', (async () => new Response('no', { status: 401 })) as unknown as typeof fetch),
    );
    expect(await failing.find('SW1A 2AA')).toEqual([]);
  });

  it('lists saved addresses only to their signed-in owner, and deletes only one’s own', async () => {
    expect(await new Visitor(w.app).json('getUserAddresses')).toEqual({ existing_addresses: [] });
    const amelia = await signedIn(w.demo.users.subscribedDark.id);
    const listed = (await amelia.json('getUserAddresses')).existing_addresses as { id: number; full_address: string }[];
    expect(listed).toEqual([
      {
        id: expect.any(Number),
        first_name: 'Amelia',
        last_name: 'Hughes',
        full_address: '14 Quay Street, Bristol, BS1 4RN, United Kingdom',
        is_default: false,
      },
    ]);
    const id = listed[0]!.id;

    // Someone else, or nobody, cannot delete it; it is still there.
    const tom = await signedIn(w.demo.users.notSubscribed.id);
    const theirs = await tom.call('deleteAddress', { address_id: String(id) as never });
    expect(theirs.statusCode).toBe(404);
    const anonymous = await new Visitor(w.app).call('deleteAddress', { address_id: String(id) as never });
    expect(anonymous.statusCode).toBe(403);
    const bad = await amelia.call('deleteAddress', { address_id: 'one' as never });
    expect(bad.statusCode).toBe(400);
    expect((await amelia.json('getUserAddresses')).existing_addresses).toHaveLength(1);

    // A copy to delete, so the seeded one stays for the other tests.
    const [copy] = await w.database.db
      .insert(userAddresses)
      .values({
        userId: w.demo.users.subscribedDark.id,
        firstName: 'A',
        lastName: 'H',
        address1: '1 Park Street',
        town: 'Bristol',
        postcode: 'BS1 5NT',
        country: '1',
        createdAt: w.clock.now,
      })
      .returning();
    expect((await amelia.call('deleteAddress', { address_id: String(copy!.id) as never })).statusCode).toBe(200);
    const after = (await amelia.json('getUserAddresses')).existing_addresses as { id: number }[];
    expect(after.map((a) => a.id)).toEqual([id]);
  });

  it('tells the checkout a delivery address is needed for gift vouchers or posted tickets, not otherwise', async () => {
    const jazz = new Visitor(w.app);
    await jazz.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect((await jazz.checkout()).require_delivery_address).toBe(false);
    const printed = new Visitor(w.app);
    await printed.add({ [w.demo.tickets.printedStalls]: 1 });
    expect((await printed.checkout()).require_delivery_address).toBe(true);
    const voucher = new Visitor(w.app);
    await voucher.add({}, [{ id: w.demo.vouchers.riverside, qty: 1, value: 2500 }]);
    expect((await voucher.checkout()).require_delivery_address).toBe(true);
  });

  it('refuses an incomplete, unknown or foreign address with a clear 4xx, and changes nothing', async () => {
    const v = await reserved(new Visitor(w.app), { [w.demo.tickets.printedStalls]: 1 });
    const before = (await storedFor(v)).length;
    const digest = await databaseDigest(w.database.db);
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ address: { ...NEW_ADDRESS, first_name: ' ' } }, 400, "Type the recipient's first name"],
      [{ address: { ...NEW_ADDRESS, last_name: '' } }, 400, "Type the recipient's last name"],
      [{ address: { ...NEW_ADDRESS, address_1: '' } }, 400, 'Type the first line of the address'],
      [{ address: { ...NEW_ADDRESS, town: '' } }, 400, 'Type the town or city'],
      [{ address: { ...NEW_ADDRESS, postcode: '' } }, 400, 'Type the postcode'],
      [{ address: { ...NEW_ADDRESS, country: '2', state: '' } }, 400, 'Choose the state'],
      [{ address: { ...NEW_ADDRESS, country: '2', state: 'XX' } }, 400, 'Choose the state'],
      [{ address: { ...NEW_ADDRESS, country: '999' } }, 400, 'Choose the country'],
      [
        { address: { selected_user_address_id: '999999' } },
        404,
        'That saved address is no longer available. Choose another or enter a new one.',
      ],
    ];
    for (const [body, status, error] of cases) {
      const res = await setAddress(v, body);
      expect([res.statusCode, res.json()]).toEqual([status, { error }]);
    }
    const malformed = await setAddress(v, {
      address: { ...NEW_ADDRESS, selected_user_address_id: 'old', town: 'Bri\u0007stol' },
    });
    expect(malformed.statusCode).toBe(400);
    expect((malformed.json() as { error: string }).error).toMatch(/^Invalid address\./);
    expect(await databaseDigest(w.database.db)).toBe(digest);
    expect((await storedFor(v)).length).toBe(before);

    // Another buyer's saved address is not offered to this one.
    const [amelias] = await w.database.db
      .select()
      .from(userAddresses)
      .where(eq(userAddresses.userId, w.demo.users.subscribedDark.id));
    const tom = await reserved(await signedIn(w.demo.users.notSubscribed.id), { [w.demo.tickets.printedStalls]: 1 });
    const res = await setAddress(tom, { address: { selected_user_address_id: String(amelias!.id) } });
    expect(res.statusCode).toBe(404);

    // Without a held sale there is nothing to deliver to.
    const early = new Visitor(w.app);
    await early.add({ [w.demo.tickets.printedStalls]: 1 });
    expect([
      (await setAddress(early, { address: NEW_ADDRESS })).statusCode,
      (await setAddress(early, { address: NEW_ADDRESS })).json(),
    ]).toEqual([409, { error: UNABLE }]);
    expect((await setAddress(new Visitor(w.app), { address: NEW_ADDRESS })).statusCode).toBe(409);
    expect((await w.database.db.select().from(saleDeliveryAddresses)).length).toBe(before);
  });

  it('asks who a gift voucher is from and for, then keeps the address and the names', async () => {
    const v = await reserved(new Visitor(w.app), {}, [{ id: w.demo.vouchers.riverside, qty: 1, value: 2500 }]);
    const missingFrom = await setAddress(v, { address: NEW_ADDRESS, gift_voucher_to: 'Grace' });
    expect([missingFrom.statusCode, missingFrom.json()]).toEqual([400, { error: FROM }]);
    const missingTo = await setAddress(v, { address: NEW_ADDRESS, gift_voucher_from: 'Ada' });
    expect([missingTo.statusCode, missingTo.json()]).toEqual([400, { error: TO }]);
    const ok = await setAddress(v, {
      address: { ...NEW_ADDRESS, country: '2', state: 'NY', postcode: '10012' },
      gift_voucher_from: ' Ada ',
      gift_voucher_to: 'Grace',
    });
    expect(ok.statusCode).toBe(200);
    const rows = await w.database.db
      .select()
      .from(saleDeliveryAddresses)
      .where(eq(saleDeliveryAddresses.giftVoucherTo, 'Grace'));
    expect(rows).toEqual([
      expect.objectContaining({
        firstName: 'Ada',
        address1: '12 Quay Street',
        country: '2',
        state: 'NY',
        postcode: '10012',
        giftVoucherFrom: 'Ada',
        userAddressId: null,
      }),
    ]);
  });

  it('delivers to a signed-in buyer’s saved address, and saves a new one for next time', async () => {
    const amelia = await reserved(await signedIn(w.demo.users.subscribedDark.id), {
      [w.demo.tickets.printedStalls]: 1,
    });
    const [saved] = (await amelia.json('getUserAddresses')).existing_addresses as { id: number }[];
    expect((await setAddress(amelia, { address: { selected_user_address_id: String(saved!.id) } })).statusCode).toBe(
      200,
    );
    let rows = await w.database.db
      .select()
      .from(saleDeliveryAddresses)
      .where(eq(saleDeliveryAddresses.userAddressId, saved!.id));
    expect(rows).toEqual([
      expect.objectContaining({ firstName: 'Amelia', address1: '14 Quay Street', postcode: 'BS1 4RN' }),
    ]);

    const tom = await reserved(await signedIn(w.demo.users.notSubscribed.id), { [w.demo.tickets.printedStalls]: 1 });
    expect((await setAddress(tom, { address: { ...NEW_ADDRESS, state: 'CA' } })).statusCode).toBe(200);
    // Twice: the same address is saved once.
    expect((await setAddress(tom, { address: NEW_ADDRESS })).statusCode).toBe(200);
    const list = (await tom.json('getUserAddresses')).existing_addresses;
    expect(list).toEqual([
      {
        id: expect.any(Number),
        first_name: 'Ada',
        last_name: 'Lovelace',
        full_address: '12 Quay Street, Bristol, BS1 4RN, United Kingdom',
        is_default: false,
      },
    ]);
    rows = await w.database.db
      .select()
      .from(saleDeliveryAddresses)
      .where(eq(saleDeliveryAddresses.userAddressId, (list as { id: number }[])[0]!.id));
    expect(rows).toEqual([expect.objectContaining({ state: '' })]);
  });

  it('takes the billing address from the address form: a saved address of the buyer’s own, or a country and a US state it offers; the form starts from it again', async () => {
    const billing = (v: Visitor, address: Record<string, string>) => v.call('setBillingAddress', { address } as never);
    const amelia = await reserved(await signedIn(w.demo.users.subscribedDark.id), { [w.demo.tickets.jazzGeneral]: 1 });
    const [saved] = (await amelia.json('getUserAddresses')).existing_addresses as { id: number }[];
    const chosen = await billing(amelia, { selected_user_address_id: String(saved!.id) });
    expect([chosen.statusCode, chosen.json()]).toEqual([
      200,
      expect.objectContaining({
        first_name: 'Amelia',
        address_1: '14 Quay Street',
        postcode: 'BS1 4RN',
        country_code: 'GB',
      }),
    ]);
    expect((await amelia.json('getPaymentError')).billing_address).toMatchObject({
      address_1: '14 Quay Street',
      country: '1',
      selected_user_address_id: String(saved!.id),
    });

    // Another buyer's saved address, a country or a state the form does not offer: refused, nothing kept.
    const tom = await reserved(await signedIn(w.demo.users.notSubscribed.id), { [w.demo.tickets.jazzGeneral]: 1 });
    const before = (await tom.json('getPaymentError')).billing_address;
    const theirs = await billing(tom, { selected_user_address_id: String(saved!.id) });
    expect([theirs.statusCode, theirs.json()]).toEqual([
      404,
      { error: 'That saved address is no longer available. Choose another or enter a new one.' },
    ]);
    expect((await billing(tom, { ...NEW_ADDRESS, country: '999' })).json()).toEqual({ error: 'Choose the country' });
    expect((await billing(tom, { ...NEW_ADDRESS, country: '2', state: 'ZZ', postcode: '94110' })).json()).toEqual({
      error: 'Choose the state',
    });
    expect((await tom.json('getPaymentError')).billing_address).toEqual(before);

    const american = await billing(tom, {
      ...NEW_ADDRESS,
      address_1: '310 Valencia Street',
      town: 'San Francisco',
      country: '2',
      state: 'CA',
      postcode: '94110',
    });
    expect([american.statusCode, american.json()]).toEqual([
      200,
      expect.objectContaining({ address_1: '310 Valencia Street', state: 'CA', postcode: '94110', country_code: 'US' }),
    ]);
    const again = (await tom.json('getPaymentError')).billing_address;
    expect(again).toMatchObject({
      address_1: '310 Valencia Street',
      town: 'San Francisco',
      state: 'CA',
      country: '2',
      country_code: 'US',
    });
    expect(again).not.toHaveProperty('selected_user_address_id');
  });
});
