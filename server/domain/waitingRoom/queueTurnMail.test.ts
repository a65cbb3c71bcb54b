/**
 * 'E-mail me when it is my turn': a waiting buyer leaves an address on the queue page; once
 * admission reaches their number one e-mail goes there, with the way back to their place, however
 * many processes run the job at once. A bad address, or a browser without a waiting place, is refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from '../../db/schema.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from '../../test/harness.ts';
import { latestMail } from '../../mail/index.ts';
import { mailTurns } from './turnMail.ts';
import { queueStatus } from '../../../contract/waitingRoom.ts';
import {
  TURN_MAIL_INVALID_MESSAGE,
  TURN_MAIL_NOT_WAITING_MESSAGE,
  TURN_MAIL_SENT_MESSAGE,
} from '../../routes/waitingRoom/index.ts';

const MAIL = {
  mailer: { transport: null, from: 'tickets@example.test' },
  brandName: 'Holdfast',
  publicUrl: 'https://tickets.example',
  secret: 'test-secret',
};
const words = (body: string) => body.replace(/&#(\d+);/g, (_, c: string) => String.fromCharCode(Number(c)));

describe.each(drivers)('the queue’s ‘your turn’ e-mail on %s', (driver) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: 120, maxHeldPerBuyer: 1000 });
  });
  afterAll(async () => world?.close());

  it('e-mails a buyer who asked, once, when admission reaches them, and not before', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 50, types: 1 });
    const dateId = types[0]!.eventDateId;
    // One shopper at a time, ten minutes each: the first is let in at the next step, the second once the first's turn ends.
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() - 1000),
      maxShoppers: 1,
      admitPerMinute: 60,
      admissionSeconds: 600,
    });
    world.clock.advance(1000);
    const buyers = [1, 2].map((i) => new Visitor(world.app, { accept: 'text/html' }, `10.7.0.${i}`));
    for (const v of buyers) {
      const joined = await v.request({
        method: 'POST',
        url: `/ajax/queue/${dateId}/join/`,
        headers: { accept: 'application/json' },
        body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      });
      expect(queueStatus.parse(joined.json()).state).toBe('waiting');
    }
    const second = buyers[1]!;
    const asked = await second.request({
      method: 'POST',
      url: `/queue/${dateId}/notify/`,
      body: new URLSearchParams({ email: ' second@example.com ' }).toString(),
    });
    expect([asked.statusCode, asked.headers.location]).toEqual([303, `/queue/${dateId}/?notify=sent`]);
    const back = await second.request({ method: 'GET', url: `/queue/${dateId}/?notify=sent` });
    expect(words(back.body)).toContain(TURN_MAIL_SENT_MESSAGE);

    // The first is let in; the second's turn has not come: nothing is sent.
    world.clock.advance(1000);
    await buyers[0]!.request({
      method: 'GET',
      url: `/ajax/queue/${dateId}/status/`,
      headers: { accept: 'application/json' },
    });
    expect(await mailTurns(db, MAIL, world.clock.now)).toBe(0);
    expect(await latestMail(db, { recipient: 'second@example.com' })).toEqual([]);

    // Ten minutes on it has: one e-mail, however many jobs run at once, with the way back to the place.
    world.clock.advance(601_000);
    await second.request({
      method: 'GET',
      url: `/ajax/queue/${dateId}/status/`,
      headers: { accept: 'application/json' },
    });
    world.clock.advance(1000);
    expect(
      queueStatus.parse(
        (
          await second.request({
            method: 'GET',
            url: `/ajax/queue/${dateId}/status/`,
            headers: { accept: 'application/json' },
          })
        ).json(),
      ).state,
    ).toBe('admitted');
    const sent = await Promise.all([mailTurns(db, MAIL, world.clock.now), mailTurns(db, MAIL, world.clock.now)]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await mailTurns(db, MAIL, world.clock.now)).toBe(0);
    const [mail, ...more] = await latestMail(db, { recipient: 'second@example.com' });
    expect(more).toEqual([]);
    expect(mail!.subject).toMatch(/^It is your turn to buy tickets for /);
    expect(mail!.body).toContain(`https://tickets.example/queue/${dateId}/`);
    expect(mail!.body).toContain('within 10 minutes');
  });

  it('refuses a bad address, and a browser that is not waiting, and changes nothing', async () => {
    const { db } = world.database;
    const { types } = await hotEvent(db, { capacity: 50, types: 1 });
    const dateId = types[0]!.eventDateId;
    await db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() + 3600_000),
      maxShoppers: 10,
      admitPerMinute: 60,
    });
    world.clock.advance(1000);
    const stranger = new Visitor(world.app, { accept: 'text/html' }, '10.7.1.1');
    const noPlace = await stranger.request({
      method: 'POST',
      url: `/queue/${dateId}/notify/`,
      body: new URLSearchParams({ email: 'me@example.com' }).toString(),
    });
    expect(noPlace.statusCode).toBe(409);
    expect(words(noPlace.body)).toContain(TURN_MAIL_NOT_WAITING_MESSAGE);
    await stranger.request({
      method: 'POST',
      url: `/ajax/queue/${dateId}/join/`,
      headers: { accept: 'application/json' },
      body: new URLSearchParams({ altcha: await solvedChallenge(stranger) }).toString(),
    });
    for (const email of ['', 'not an address', `${'x'.repeat(250)}@example.com`]) {
      const bad = await stranger.request({
        method: 'POST',
        url: `/queue/${dateId}/notify/`,
        body: new URLSearchParams({ email }).toString(),
      });
      expect(bad.statusCode).toBe(400);
      expect(words(bad.body)).toContain(TURN_MAIL_INVALID_MESSAGE);
    }
    const unknown = await stranger.request({
      method: 'POST',
      url: '/queue/999999/notify/',
      body: new URLSearchParams({ email: 'me@example.com' }).toString(),
    });
    expect(unknown.statusCode).toBe(404);
    const [place] = await db.select().from(t.queuePlaces).where(eq(t.queuePlaces.eventDateId, dateId));
    expect(place!.notifyEmail).toBeNull();
  });
});
