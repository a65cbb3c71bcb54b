import { describe, expect, it } from 'vitest';
import { seatsioClient, seatsioLabel, seatsioRequests, SEATSIO_UNAVAILABLE } from './seatsio.ts';
import { refusalOf } from '../../test/refusals.ts';

/** Shapes as seats.io documents them (docs.seats.io: hold tokens, temporarily hold objects, book). */
const RECORDED = {
  holdToken: { holdToken: 'wvXbB9MlHt', expiresAt: '2017-05-05T10:58:44.715Z', expiresInSeconds: 768 },
  holdRequest: { objects: ['A-3', 'A-5'], holdToken: 'wvXbB9MlHt' },
  refusal: { errors: [{ code: 'ILLEGAL_STATUS_CHANGE', message: 'A-3 is already held' }], messages: ['A-3 is already held'], requestId: 'r1' },
};

const settings = { secretKey: 'sk-test-workspace', region: 'eu' };

describe('seats.io requests', () => {
  it('builds the hold-token, hold, release and book calls as seats.io documents them', () => {
    const r = seatsioRequests(settings);
    const auth = `Basic ${Buffer.from('sk-test-workspace:').toString('base64')}`;
    expect(r.createHoldToken()).toEqual({
      method: 'POST',
      url: 'https://api-eu.seatsio.net/hold-tokens',
      headers: { authorization: auth, 'content-type': 'application/json', accept: 'application/json' },
      body: '{}',
    });
    const hold = r.hold('event1', ['A-3', 'A-5'], 'wvXbB9MlHt');
    expect(hold.url).toBe('https://api-eu.seatsio.net/events/event1/actions/hold');
    expect(JSON.parse(hold.body)).toEqual(RECORDED.holdRequest);
    expect(r.release('event 1', ['A-3'], 't').url).toBe('https://api-eu.seatsio.net/events/event%201/actions/release');
    expect(seatsioRequests({ ...settings, region: 'na' }).book('e', ['A-3'], 't').url).toBe('https://api-na.seatsio.net/events/e/actions/book');
    expect(seatsioLabel({ section: 'Stalls', row: 'A', number: '3' })).toBe('Stalls-A-3');
  });

  it('reads a hold token, and turns a refusal into the buyer’s words', async () => {
    const sent: { url: string; init: RequestInit | undefined }[] = [];
    const replies = [new Response(JSON.stringify(RECORDED.holdToken), { status: 201 }), new Response(null, { status: 204 }), new Response(JSON.stringify(RECORDED.refusal), { status: 400 })];
    const client = seatsioClient(settings, async (url, init) => {
      sent.push({ url: String(url), init });
      return replies.shift()!;
    });
    expect(await client.createHoldToken()).toEqual(RECORDED.holdToken);
    await client.hold('event1', ['A-3', 'A-5'], 'wvXbB9MlHt');
    expect(await refusalOf(client.hold('event1', ['A-3'], 'other'))).toMatchObject({ status: 409, message: 'A-3 is already held' });
    expect(sent.map((s) => [s.init?.method, s.url])).toEqual([
      ['POST', 'https://api-eu.seatsio.net/hold-tokens'],
      ['POST', 'https://api-eu.seatsio.net/events/event1/actions/hold'],
      ['POST', 'https://api-eu.seatsio.net/events/event1/actions/hold'],
    ]);
    const offline = seatsioClient(settings, async () => {
      throw new TypeError('fetch failed');
    });
    await expect(offline.book('event1', ['A-3'], 't')).rejects.toMatchObject({ message: SEATSIO_UNAVAILABLE });
  });
});
