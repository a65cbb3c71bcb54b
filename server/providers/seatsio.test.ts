import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seatsioLabel, seatsioSeats, SEATSIO_UNAVAILABLE, SeatsioUnreachable } from './seatsio.ts';
import { seatingWiring } from './seating.ts';
import { parseConfig } from '../config.ts';
import { refusalOf } from '../test/refusals.ts';
import { startFakeSeatsio, type FakeSeatsio } from '../test/fakeSeatsio.ts';

const SECRET = 'sk-test-workspace-secret';
const a = (number: string) => ({ section: 'Stalls', row: 'A', number });

describe('seats.io through its SDK, against a local stand-in of its API', () => {
  let fake: FakeSeatsio;
  beforeAll(async () => {
    fake = await startFakeSeatsio({
      secretKey: SECRET,
      events: { show: ['Stalls-A-1', 'Stalls-A-2', 'Stalls-A-3', 'Stalls-A-4'] },
    });
  });
  afterAll(async () => fake?.close());
  const seating = () => seatsioSeats({ secretKey: SECRET, apiBase: fake.base });

  it('labels a seat section-row-number, as the chart does', () => {
    expect(seatsioLabel(a('3'))).toBe('Stalls-A-3');
  });

  it('accepts seats held under the buyer’s token, and refuses them under another or once the hold ended', async () => {
    const mine = fake.newHoldToken();
    const theirs = fake.newHoldToken();
    fake.hold('show', ['Stalls-A-1', 'Stalls-A-2'], mine);
    await seating().checkHeld('show', [a('1'), a('2')], mine);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'GET',
      path: '/events/show/objects?label=Stalls-A-1&label=Stalls-A-2',
    });
    expect(await refusalOf(seating().checkHeld('show', [a('1')], theirs))).toEqual({
      status: 409,
      message: 'Your hold on Stalls, row A, seat 1 has ended. Please choose your seats again.',
    });
    fake.expire(mine);
    expect(await refusalOf(seating().checkHeld('show', [a('2')], mine))).toMatchObject({
      message: 'Your hold on Stalls, row A, seat 2 has ended. Please choose your seats again.',
    });
    // A seat the chart does not know, or an event it does not know: seats.io cannot answer for it.
    expect(await refusalOf(seating().checkHeld('show', [a('9')], mine))).toMatchObject({
      message: SEATSIO_UNAVAILABLE,
    });
    expect(await refusalOf(seating().checkHeld('gone', [a('1')], mine))).toMatchObject({
      message: SEATSIO_UNAVAILABLE,
    });
  });

  it('books held seats for the order under the token, once, and books free seats after the hold ended', async () => {
    const token = fake.newHoldToken();
    fake.hold('show', ['Stalls-A-3'], token);
    expect(await seating().book('show', [a('3')], token, 'sale-1')).toBe(true);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: '/events/groups/actions/change-object-status?expand=objects',
      body: {
        type: 'CHANGE_STATUS_TO',
        status: 'booked',
        objects: [{ objectId: 'Stalls-A-3' }],
        holdToken: token,
        orderId: 'sale-1',
        events: ['show'],
      },
    });
    expect(fake.events.get('show')!.get('Stalls-A-3')).toEqual({ status: 'booked', orderId: 'sale-1' });
    // Settled again: the seats are this order's already.
    expect(await seating().book('show', [a('3')], token, 'sale-1')).toBe(true);
    // Another order cannot have them.
    expect(await seating().book('show', [a('3')], fake.newHoldToken(), 'sale-2')).toBe(false);

    const lapsed = fake.newHoldToken();
    fake.hold('show', ['Stalls-A-4'], lapsed);
    fake.expire(lapsed);
    expect(await seating().book('show', [a('4')], lapsed, 'sale-3')).toBe(true);
    expect(fake.events.get('show')!.get('Stalls-A-4')).toEqual({ status: 'booked', orderId: 'sale-3' });
  });

  it('refuses to book a seat another buyer holds, and gives back seats held under the token', async () => {
    const other = fake.newHoldToken();
    const mine = fake.newHoldToken();
    fake.events.get('show')!.set('Stalls-A-1', { status: 'free' });
    fake.events.get('show')!.set('Stalls-A-2', { status: 'free' });
    fake.hold('show', ['Stalls-A-1'], other);
    fake.hold('show', ['Stalls-A-2'], mine);
    expect(await seating().book('show', [a('1')], mine, 'sale-4')).toBe(false);
    expect(fake.events.get('show')!.get('Stalls-A-1')).toMatchObject({ status: 'reservedByToken', holdToken: other });
    await seating().release('show', [a('2')], mine);
    expect(fake.requests.at(-1)!.body).toMatchObject({
      type: 'RELEASE',
      objects: [{ objectId: 'Stalls-A-2' }],
      holdToken: mine,
    });
    expect(fake.events.get('show')!.get('Stalls-A-2')).toEqual({ status: 'free' });
    // Giving back a hold that already ended is no error.
    await seating().release('show', [a('2')], mine);
  });

  it('makes a hold token last until a given moment, in whole minutes; a token that ended stays ended', async () => {
    const token = fake.newHoldToken(60);
    const now = new Date();
    await seating().extendHold(token, new Date(now.getTime() + 10 * 60_000 + 1), now);
    expect(fake.requests.at(-1)).toMatchObject({
      method: 'POST',
      path: `/hold-tokens/${token}`,
      body: { expiresInMinutes: 11 },
    });
    expect(fake.expiryOf(token)!.getTime() - Date.now()).toBeGreaterThan(10 * 60_000);
    fake.expire(token);
    await seating().extendHold(token, new Date(now.getTime() + 60_000), now);
    expect(fake.expiryOf(token)!.getTime()).toBe(0);
  });

  it('says seats.io cannot be reached, in the buyer’s words when adding, as an error when booking', async () => {
    const offline = seatsioSeats({ secretKey: SECRET, apiBase: 'http://127.0.0.1:1' });
    expect(await refusalOf(offline.checkHeld('show', [a('1')], 't'))).toEqual({
      status: 409,
      message: SEATSIO_UNAVAILABLE,
    });
    await expect(offline.book('show', [a('1')], 't', 'sale-5')).rejects.toBeInstanceOf(SeatsioUnreachable);
    await offline.release('show', [a('1')], 't');
    // A wrong secret key is seats.io's 401: not a refusal the buyer could act on.
    const wrongKey = seatsioSeats({ secretKey: 'not-the-key', apiBase: fake.base });
    expect(await refusalOf(wrongKey.checkHeld('show', [a('1')], 't'))).toMatchObject({ message: SEATSIO_UNAVAILABLE });
  });

  it('is wired only with both keys; its API is the region’s unless pointed at a stand-in', () => {
    expect(seatingWiring(parseConfig({}))).toBeNull();
    expect(() => parseConfig({ SEATSIO_PUBLIC_KEY: 'pk-0123456789' })).toThrow(
      'SEATSIO_SECRET_KEY: required when seats.io is keyed',
    );
    const keyed = parseConfig({
      SEATSIO_PUBLIC_KEY: 'pk-0123456789',
      SEATSIO_SECRET_KEY: SECRET,
      SEATSIO_REGION: 'na',
    });
    expect(keyed.seatsio).toEqual({
      publicKey: 'pk-0123456789',
      secretKey: SECRET,
      region: 'na',
      apiBase: 'https://api-na.seatsio.net',
    });
    expect(seatingWiring(keyed)?.name).toBe('seatsio');
    expect(
      parseConfig({
        SEATSIO_PUBLIC_KEY: 'pk-0123456789',
        SEATSIO_SECRET_KEY: SECRET,
        SEATSIO_API_BASE: 'http://127.0.0.1:9/',
      }).seatsio?.apiBase,
    ).toBe('http://127.0.0.1:9');
  });
});
