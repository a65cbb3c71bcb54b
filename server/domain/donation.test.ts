/**
 * Donation and Gift Aid through the HTTP calls (spec 000 §4, §5, §7, §8, §9) and the charity's
 * download of its declarations in HMRC's Gift Aid schedule columns.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sales } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { houseNameOrNumber, scheduleCsv, scheduleDate, scheduleRows } from './giftAid.ts';

const PROBLEM_AMOUNT = 'There was a problem setting your donation amount. Please try again.';
const SELECT_AMOUNT = 'Please select an amount.';
const PROBLEM_GIFT_AID = 'There was a problem setting your gift aid status. Please try again.';

describe.each(drivers)('donation and Gift Aid on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  /** A visitor holding a reserved basket of the charity organiser's jazz night. */
  async function reservedDonor(signedInAs?: number) {
    const v = new Visitor(w.app);
    if (signedInAs !== undefined) {
      const res = await v.request({ method: 'POST', url: '/signin/', body: `user_id=${signedInAs}` });
      expect(res.statusCode).toBe(303);
    }
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    return v;
  }

  const donate = (v: Visitor, amount: number | string, charityId: number | string = w.demo.charity.id) =>
    v.call('saveDonation', {
      amount_before_booking_fee: String(amount) as never,
      charity_id: String(charityId) as never,
    });

  const giftAid = (v: Visitor, form: Record<string, string>) => v.call('updateDonation', form as never);

  it('adds the donation and its fee to the checkout: base 20p + 1.5 %, plus 20 % VAT, capped at £5', async () => {
    const v = await reservedDonor();
    const before = await v.checkout();
    expect(before.charity?.id).toBe(w.demo.charity.id);
    expect(before.donation).toBeNull();

    expect((await donate(v, 1000)).statusCode).toBe(200);
    let after = await v.checkout();
    expect(after.donation).toEqual({ amount_before_booking_fee: 1000, booking_fee: 42, is_gift_aid: false });
    expect(after.donation_amount).toBe(1000);
    expect(after.basket_total).toBe(before.basket_total + 1042);

    // A new amount replaces the last one; a large one meets the cap.
    expect((await donate(v, 50_000)).statusCode).toBe(200);
    after = await v.checkout();
    expect(after.donation).toEqual({ amount_before_booking_fee: 50_000, booking_fee: 500, is_gift_aid: false });
    expect(after.basket_total).toBe(before.basket_total + 50_500);
  });

  it('refuses a donation below 1, for another charity, or outside a live reservation, in the spec’s words', async () => {
    const v = await reservedDonor();
    for (const amount of [0, 99, '', 'ten', '-5']) {
      const res = await donate(v, amount);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: SELECT_AMOUNT });
    }
    const other = await donate(v, 500, w.demo.charity.id + 1000);
    expect([other.statusCode, other.json()]).toEqual([400, { error: PROBLEM_AMOUNT }]);

    // A basket whose organisers have no charity.
    const runner = new Visitor(w.app);
    await runner.add({ [w.demo.tickets.trail10k]: 1 });
    await runner.json('reserveTickets');
    expect((await donate(runner, 500)).json()).toEqual({ error: PROBLEM_AMOUNT });

    // Not reserved yet, and no basket at all.
    const early = new Visitor(w.app);
    await early.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect((await donate(early, 500)).json()).toEqual({ error: PROBLEM_AMOUNT });
    const stranger = new Visitor(w.app);
    const res = await donate(stranger, 500);
    expect([res.statusCode, res.json()]).toEqual([409, { error: PROBLEM_AMOUNT }]);
    expect((await v.checkout()).donation).toBeNull();
  });

  it('keeps Gift Aid only with the address a donation of 20 or more needs', async () => {
    const v = await reservedDonor();
    // Gift Aid before any donation.
    expect((await giftAid(v, { is_gift_aid: 'true' })).json()).toEqual({ error: PROBLEM_GIFT_AID });

    await donate(v, 2000);
    for (const form of [
      { is_gift_aid: 'true', uk_based: 'true', address1: '12 Harbour Road', postcode: '' } as Record<string, string>,
      { is_gift_aid: 'true', uk_based: 'true', address1: ' ', postcode: 'BS1 4RN' },
      { is_gift_aid: 'true', uk_based: 'false', address1: '', postcode: 'BS1 4RN' },
      { is_gift_aid: 'maybe' },
    ]) {
      const res = await giftAid(v, form);
      expect([res.statusCode, res.json()]).toEqual([400, { error: PROBLEM_GIFT_AID }]);
    }
    expect((await v.checkout()).is_gift_aid).toBe(false);

    expect(
      (
        await giftAid(v, {
          is_gift_aid: 'true',
          subscribe: 'true',
          uk_based: 'true',
          address1: '12 Harbour Road',
          postcode: 'bs1 4rn',
        })
      ).statusCode,
    ).toBe(200);
    const checkout = await v.checkout();
    expect(checkout.is_gift_aid).toBe(true);
    expect(checkout.donation?.is_gift_aid).toBe(true);

    // Below 20 no address is needed; turning it off is always allowed.
    const small = await reservedDonor();
    await donate(small, 1999);
    expect((await giftAid(small, { is_gift_aid: 'true' })).statusCode).toBe(200);
    expect((await giftAid(small, { is_gift_aid: 'false' })).statusCode).toBe(200);
    expect((await small.checkout()).is_gift_aid).toBe(false);
  });

  it('leaves the donation behind when the basket is edited: a new reservation starts without it', async () => {
    const v = await reservedDonor();
    await donate(v, 500);
    expect((await v.call('destroySale')).statusCode).toBe(200);
    expect((await v.checkout()).donation).toBeNull();
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const again = await v.checkout();
    expect([again.donation, again.donation_amount]).toEqual([null, 0]);
  });
});

describe.each(drivers)('the charity’s Gift Aid schedule on %s', (driver) => {
  let w: TestWorld;
  let csv = '';

  async function reservedDonor(signedInAs?: number) {
    const v = new Visitor(w.app);
    if (signedInAs !== undefined) await v.request({ method: 'POST', url: '/signin/', body: `user_id=${signedInAs}` });
    await v.add({ [w.demo.tickets.jazzGeneral]: 1 });
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    return v;
  }

  async function declare(v: Visitor, amount: number, form: Record<string, string>, paid = true) {
    expect(
      (
        await v.call('saveDonation', {
          amount_before_booking_fee: String(amount) as never,
          charity_id: String(w.demo.charity.id) as never,
        })
      ).statusCode,
    ).toBe(200);
    expect((await v.call('updateDonation', form as never)).statusCode).toBe(200);
    if (!paid) return;
    const reference = (await v.checkout()).sale_reference!;
    const [sale] = await w.database.db.select({ id: sales.id }).from(sales).where(eq(sales.reference, reference));
    await w.database.db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now));
  }

  const download = (token: string) =>
    new Visitor(w.app).request({
      method: 'POST',
      url: '/charity/gift-aid/declarations.csv',
      body: `token=${encodeURIComponent(token)}`,
    });

  beforeAll(async () => {
    w = await openWorld(driver);
    const { subscribedDark: amelia, notSubscribed: tom } = w.demo.users;
    // 1 June 2026: a signed-in donor in the UK, and two small anonymous donations.
    await declare(await reservedDonor(tom.id), 2500, {
      is_gift_aid: 'true',
      uk_based: 'true',
      address1: '12 Harbour Road',
      postcode: 'bs1 4rn',
    });
    await declare(await reservedDonor(), 500, { is_gift_aid: 'true' });
    await declare(await reservedDonor(), 300, { is_gift_aid: 'true' });
    // Not in the schedule: Gift Aid declined; a declaration whose basket was then edited; a large
    // donation whose donor never said who they are.
    await declare(await reservedDonor(), 1000, { is_gift_aid: 'false' });
    const edited = await reservedDonor();
    await declare(edited, 700, { is_gift_aid: 'true' }, false);
    await edited.call('destroySale');
    // Nor one whose sale is still held, not yet paid.
    await declare(
      await reservedDonor(),
      1500,
      { is_gift_aid: 'true', uk_based: 'true', address1: '9 Unpaid Row', postcode: 'BS2 2BB' },
      false,
    );
    await declare(await reservedDonor(), 2500, {
      is_gift_aid: 'true',
      uk_based: 'true',
      address1: '3 Quay St',
      postcode: 'BS1 1AA',
    });

    // 4 June: an overseas taxpayer, and a donor identified after declaring.
    w.clock.advance(3 * 86_400_000);
    await declare(await reservedDonor(amelia.id), 3000, {
      is_gift_aid: 'true',
      uk_based: 'false',
      address1: '4 Rue Oberkampf, Paris',
      postcode: '',
    });
    const later = await reservedDonor();
    const reference = (await later.checkout()).sale_reference!;
    await declare(later, 4000, {
      is_gift_aid: 'true',
      uk_based: 'true',
      address1: 'Rose Cottage, Mill Lane',
      postcode: 'BA1 1AA',
    });
    await w.database.db.update(sales).set({ userId: tom.id }).where(eq(sales.reference, reference));

    const res = await download(w.demo.charity.downloadToken);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="gift-aid-harbour-lights-trust.csv"');
    expect(res.headers['cache-control']).toBe('no-store');
    csv = res.body;
  });
  afterAll(async () => w?.close());

  it('lists each declaration in HMRC’s columns: named donors with house and postcode, small ones aggregated', () => {
    expect(csv.split('\r\n')).toEqual([
      'Title,First name or initial,Last name,House name or number,Postcode,Aggregated donations,Sponsored event,Donation date,Amount',
      ',Tom,Okafor,12,BS1 4RN,,,01/06/26,25.00',
      ',,,,,One-off small donations,,01/06/26,8.00',
      ',Amelia,Hughes,4,X,,,04/06/26,30.00',
      ',Tom,Okafor,Rose Cottage,BA1 1AA,,,04/06/26,40.00',
      '',
    ]);
  });

  it('is protected by the charity’s token', async () => {
    const wrong = await download('not-the-token-of-any-charity');
    expect(wrong.statusCode).toBe(403);
    expect(wrong.body).toContain('That download token is not one we know.');
    expect(wrong.body).not.toContain('Okafor');

    const page = await new Visitor(w.app).request({ method: 'GET', url: '/charity/gift-aid/' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('type="password" name="token"');

    const noBearer = await new Visitor(w.app).request({ method: 'GET', url: '/charity/gift-aid/declarations.csv' });
    expect(noBearer.statusCode).toBe(401);
    const bearer = await new Visitor(w.app).request({
      method: 'GET',
      url: '/charity/gift-aid/declarations.csv',
      headers: { authorization: `Bearer ${w.demo.charity.downloadToken}` },
    });
    expect(bearer.body).toBe(csv);
  });
});

describe('the schedule’s rows', () => {
  const day = (d: number) => new Date(Date.UTC(2026, 5, d, 12));
  const small = (amount: number, d: number) => ({
    firstName: null,
    lastName: null,
    ukBased: true,
    address1: '',
    postcode: '',
    amount,
    declaredAt: day(d),
  });

  it('aggregates small donations up to £1,000 a row, each row dated by its last donation', () => {
    const rows = scheduleRows([...Array.from({ length: 60 }, (_, i) => small(2000, 1 + (i % 28))), small(1500, 29)]);
    expect(rows.map((r) => [r.aggregated, r.amount, scheduleDate(r.date)])).toEqual([
      ['One-off small donations', 100_000, scheduleDate(day(22))],
      ['One-off small donations', 21_500, '29/06/26'],
    ]);
  });

  it('takes the house name or number from line 1', () => {
    expect(houseNameOrNumber('12 Harbour Road')).toBe('12');
    expect(houseNameOrNumber('12a Harbour Road')).toBe('12a');
    expect(houseNameOrNumber('Rose Cottage, Mill Lane')).toBe('Rose Cottage');
    expect(houseNameOrNumber('Flat 3, 8 Quay Street')).toBe('Flat 3');
  });

  it('never hands a spreadsheet a formula, and quotes commas and quotes', () => {
    const csv = scheduleCsv([
      {
        title: '',
        firstName: '=HYPERLINK("x")',
        lastName: "O'Brien, Jr",
        house: '+1',
        postcode: 'X',
        aggregated: '',
        sponsored: '',
        date: day(2),
        amount: 1005,
      },
    ]);
    expect(csv.split('\r\n')[1]).toBe(`,"'=HYPERLINK(""x"")","O'Brien, Jr",'+1,X,,,02/06/26,10.05`);
  });
});
