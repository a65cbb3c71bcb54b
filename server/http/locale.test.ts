/**
 * Each request is answered in its own language (server/http/locale.ts): the picker's cookie, a
 * signed-in buyer's account, the browser's Accept-Language, else the source's English; requests
 * in different languages at once never take each other's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import * as t from '../db/schema.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import { signedInVisitor } from '../test/fixtures.ts';
import { scopesOpen } from '../languageScope.ts';

const HTML = { accept: 'text/html' };
const langOf = (body: string) => /<html[^>]* lang="([^"]+)"/.exec(body)?.[1];

describe.each(drivers)('the language of each request on %s', (driver) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await openWorld(driver);
  });
  afterAll(async () => world?.close());

  const page = (headers: Record<string, string>, v = new Visitor(world.app, HTML)) =>
    v.request({ method: 'GET', url: '/all-events/', headers });

  it('answers in English without a choice, and in Welsh for a browser asking for it', async () => {
    const english = await page({});
    expect(langOf(english.body)).toBe('en-GB');
    expect(english.body).toContain('All events');
    const welsh = await page({ 'accept-language': 'cy-GB,cy;q=0.9,en;q=0.5' });
    expect(langOf(welsh.body)).toBe('cy');
    expect(welsh.body).toContain('Pob digwyddiad');
  });

  it('keeps each of many requests at once in its own language', async () => {
    const asked = Array.from({ length: 24 }, (_, i) => (i % 3 === 0 ? 'cy' : i % 3 === 1 ? 'en-GB' : ''));
    const answers = await Promise.all(asked.map((lang) => page(lang ? { 'accept-language': lang } : {})));
    expect(answers.map((a) => langOf(a.body))).toEqual(asked.map((lang) => (lang === 'cy' ? 'cy' : 'en-GB')));
    // And afterwards, a request with no choice is English again.
    expect(langOf((await page({})).body)).toBe('en-GB');
  });

  it('gives a signed-in buyer their account’s language over the browser’s, and the picker’s cookie over both', async () => {
    const v = await signedInVisitor(world.app, world.database.db);
    const me = await v.json('getUser');
    const userId = (me.user as { id: number }).id;
    await world.database.db.update(t.users).set({ language: 'cy' }).where(eq(t.users.id, userId));
    expect(
      langOf(
        (await v.request({ method: 'GET', url: '/all-events/', headers: { ...HTML, 'accept-language': 'en-GB' } }))
          .body,
      ),
    ).toBe('cy');
    const chosen = await world.app.inject({
      method: 'GET',
      url: '/all-events/',
      headers: { ...HTML, 'accept-language': 'cy', cookie: `${v.cookieHeader}; hf_lang=en-GB` },
    });
    expect(langOf(chosen.body)).toBe('en-GB');
  });

  // A scope slows every promise of the process while it is open (server/languageScope.ts): each
  // must end with its request, however the request ends, or every later request pays for it.
  it('ends each request’s language scope with its answer, and opens none for an English call', async () => {
    const before = scopesOpen();
    await page({ 'accept-language': 'cy' });
    await page({});
    await world.app.inject({
      method: 'GET',
      url: '/ajax/checkout/checkout/get/',
      headers: { 'accept-language': 'cy' },
    });
    expect(scopesOpen()).toBe(before);
  });

  it('ends the scope of a request answered over a kept-alive connection, and of one whose buyer went away before the answer', async () => {
    const before = scopesOpen();
    const address = await world.app.listen({ host: '127.0.0.1', port: 0 });
    for (let i = 0; i < 3; i++) {
      const answer = await fetch(`${address}/all-events/`, { headers: { ...HTML, 'accept-language': 'cy' } });
      expect(langOf(await answer.text())).toBe('cy');
    }
    await expect.poll(() => scopesOpen()).toBe(before);
    const { request } = await import('node:http');
    await new Promise<void>((resolve) => {
      const asked = request(`${address}/all-events/`, { headers: { ...HTML, 'accept-language': 'cy' } });
      asked.on('error', () => resolve());
      asked.on('socket', (socket) => socket.on('connect', () => setTimeout(() => asked.destroy(), 1)));
      asked.end();
    });
    await expect.poll(() => scopesOpen()).toBe(before);
  });
});
