/**
 * 'Your turn' and 'sold out' pushed to every open queue page, over a real socket as a browser's
 * EventSource reads them: within a second or two of the queue's read finding them, not at the
 * page's next poll.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from '../../db/schema.ts';
import { hotEvent } from '../../test/fixtures.ts';
import { drivers, openWorld, solvedChallenge, type TestWorld, Visitor } from '../../test/harness.ts';
import { queueStatus } from '../../../contract/waitingRoom.ts';
import { queueEventsPath } from '../../../contract/queuePage.ts';
import { scopesOpen } from '../../languageScope.ts';

/** An open page's event stream: the events it has heard, each with when it came. */
async function listen(base: string, v: Visitor, dateId: number, headers: Record<string, string> = {}) {
  const abort = new AbortController();
  const res = await fetch(`${base}${queueEventsPath(dateId)}`, {
    headers: { cookie: v.cookieHeader, accept: 'text/event-stream', ...headers },
    signal: abort.signal,
  });
  const heard: { event: string; data: string; at: number }[] = [];
  if (res.status === 200) {
    void (async () => {
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) return;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1] ?? '';
            if (event) heard.push({ event, data, at: performance.now() });
          }
        }
      } catch {
        // aborted
      }
    })();
  }
  return { status: res.status, type: res.headers.get('content-type'), heard, close: () => abort.abort() };
}

async function until<T>(what: () => T | undefined, ms = 3000): Promise<T> {
  const end = performance.now() + ms;
  for (;;) {
    const found = what();
    if (found !== undefined) return found;
    if (performance.now() > end) throw new Error(`not heard in time`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.each(drivers)('the queue pushed to open pages on %s', (driver) => {
  let world: TestWorld;
  let base: string;
  beforeAll(async () => {
    world = await openWorld(driver, { checkoutTimeSeconds: 120, maxHeldPerBuyer: 1000 });
    await world.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(world.app.server.address() as { port: number }).port}`;
  });
  afterAll(async () => {
    // The test's own fetches keep their sockets open for reuse.
    world?.app.server.closeAllConnections();
    await world?.close();
  });

  /** A date of one ticket type whose queue opened a second ago. */
  async function queuedDate(
    capacity: number,
    queue: { maxShoppers: number; admitPerMinute: number; pollSeconds?: number },
  ) {
    const { types } = await hotEvent(world.database.db, { capacity, types: 1 });
    const dateId = types[0]!.eventDateId;
    await world.database.db.insert(t.eventDateQueues).values({
      eventDateId: dateId,
      onSaleAt: new Date(world.clock.now.getTime() - 1000),
      ...queue,
    });
    world.clock.advance(1000);
    return { typeId: types[0]!.id, dateId };
  }

  /** Each buyer joins the date's queue, one after another: what each is told. */
  async function join(dateId: number, buyers: Visitor[]) {
    const told = [];
    for (const v of buyers) {
      const joined = await v.request({
        method: 'POST',
        url: `/ajax/queue/${dateId}/join/`,
        body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
      });
      told.push(queueStatus.parse(joined.json()));
    }
    return told;
  }

  it('tells the next buyer it is their turn and every other open page that it is sold out, within a second or two', async () => {
    const { typeId, dateId } = await queuedDate(1, { maxShoppers: 10, admitPerMinute: 60, pollSeconds: 5 });
    const buyers = [1, 2, 3].map((i) => new Visitor(world.app, { accept: 'application/json' }, `10.1.0.${i}`));
    expect((await join(dateId, buyers)).map((told) => told.state)).toEqual(['waiting', 'waiting', 'waiting']);
    const pages = await Promise.all(buyers.map((v) => listen(base, v, dateId)));
    try {
      expect(pages.map((p) => [p.status, p.type])).toEqual(buyers.map(() => [200, 'text/event-stream; charset=utf-8']));
      // A second on: the first in line is let in, and their page is told to ask now.
      world.clock.advance(1000);
      const movedAt = performance.now();
      const nudge = await until(() => pages[0]!.heard.find((e) => e.event === 'nudge')).catch((err: unknown) => {
        throw new Error(`${String(err)}: ${JSON.stringify(pages.map((p) => p.heard))}`);
      });
      expect(nudge.at - movedAt).toBeLessThan(2000);
      const theirs = await buyers[0]!.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` });
      expect(queueStatus.parse(theirs.json()).state).toBe('admitted');
      expect(pages[1]!.heard.filter((e) => e.event === 'nudge')).toEqual([]);

      // They hold the one ticket: a second on, every page still waiting hears 'sold out' as the poll would say it.
      await buyers[0]!.add({ [typeId]: 1 });
      expect(await buyers[0]!.json('reserveTickets', {})).toMatchObject({ reserved: true });
      world.clock.advance(1000);
      const soldAt = performance.now();
      for (const page of pages.slice(1)) {
        const told = await until(() => page.heard.find((e) => e.event === 'status'));
        expect(told.at - soldAt).toBeLessThan(2000);
        expect(queueStatus.parse(JSON.parse(told.data)).state).toBe('sold-out');
      }
      expect(pages[0]!.heard.filter((e) => e.event === 'status')).toEqual([]);
    } finally {
      for (const p of pages) p.close();
    }
  });

  it('shows every open page the organiser’s new message within a second or two, and the poll carries it', async () => {
    const { db } = world.database;
    const { dateId } = await queuedDate(50, { maxShoppers: 1, admitPerMinute: 1, pollSeconds: 30 });
    const buyers = [1, 2, 3].map((i) => new Visitor(world.app, { accept: 'application/json' }, `10.1.2.${i}`));
    expect((await join(dateId, buyers)).map((told) => told.organiser_message)).toEqual([null, null, null]);
    const pages = await Promise.all(buyers.slice(1).map((v) => listen(base, v, dateId)));
    try {
      await db
        .update(t.eventDateQueues)
        .set({ message: 'Doors open at 7pm; the queue is moving.' })
        .where(eq(t.eventDateQueues.eventDateId, dateId));
      world.clock.advance(1000);
      const saidAt = performance.now();
      for (const page of pages) {
        const nudge = await until(() => page.heard.find((e) => e.event === 'nudge'));
        expect(nudge.at - saidAt).toBeLessThan(2000);
      }
      const polled = queueStatus.parse(
        (await buyers[2]!.request({ method: 'GET', url: `/ajax/queue/${dateId}/status/` })).json(),
      );
      expect(polled.state).toBe('waiting');
      expect(polled.organiser_message).toBe('Doors open at 7pm; the queue is moving.');
      const shown = await buyers[2]!.request({
        method: 'GET',
        url: `/queue/${dateId}/`,
        headers: { accept: 'text/html' },
      });
      expect(shown.body).toContain('Doors open at 7pm; the queue is moving.');
    } finally {
      for (const p of pages) p.close();
    }
  });

  // A language scope slows every promise of the process while it is open (server/languageScope.ts).
  // A stream stays open for as long as its buyer waits, and carries states, not words.
  it('keeps no language scope open for a Welsh buyer’s open page', async () => {
    const { dateId } = await queuedDate(5, { maxShoppers: 1, admitPerMinute: 1 });
    const buyers = [1, 2].map((i) => new Visitor(world.app, { accept: 'application/json' }, `10.1.3.${i}`));
    await join(dateId, buyers);
    const before = scopesOpen();
    const page = await listen(base, buyers[1]!, dateId, { 'accept-language': 'cy' });
    try {
      expect(page.status).toBe(200);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(scopesOpen()).toBe(before);
    } finally {
      page.close();
    }
  });

  it('pushes nothing to a browser without a place: it is answered 204 and polls', async () => {
    const { dateId } = await queuedDate(5, { maxShoppers: 10, admitPerMinute: 60 });
    const stranger = await listen(base, new Visitor(world.app, {}, '10.1.1.1'), dateId);
    expect(stranger.status).toBe(204);
    const unknown = await fetch(`${base}${queueEventsPath(999_999)}`);
    expect(unknown.status).toBe(404);
  });
});
