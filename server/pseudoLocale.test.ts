/**
 * Every word of the server's pages and e-mails comes through the message catalogue (docs/i18n.md).
 * Drawn in the accented pseudo-locale (en-XA), a page shows no text, and says no label, with a
 * letter and no accented letter but the data it shows (an event's title, a venue, a name, an
 * address, a reference, a date, an amount); each e-mail and text message, written in en-XA, says
 * none either. The rule is the browser's (i18n/untranslated.ts, e2e/languages.phone.spec.ts), read
 * here from the server's HTML, which is quicker than a browser.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { inActiveLanguage } from '../i18n/catalogues.ts';
import { ACCENTED, untranslated } from '../i18n/untranslated.ts';
import * as schema from './db/schema.ts';
import { COUNTRIES } from './domain/addressCountries.ts';
import { completeSale } from './domain/completeSale.ts';
import { SANDBOX_MESSAGES } from './domain/payment/sandbox.ts';
import { GOOGLE_STAND_IN_PATH } from './domain/passes/google.ts';
import { SMART_CHECKOUT_PATH } from './domain/smartCheckout.ts';
import type { WalletTicket } from './domain/tickets.ts';
import * as users from './domain/users.ts';
import * as oneTimeCode from './domain/oneTimeCode.ts';
import * as account from './domain/account.ts';
import { NOTICES } from './http/notices.ts';
import { TURN_MAIL_INVALID_MESSAGE, TURN_MAIL_NOT_WAITING_MESSAGE } from './routes/waitingRoom/index.ts';
import {
  ADMISSION_USED_MESSAGE,
  placesPerAddressMessage,
  QUEUE_FIRST_MESSAGE,
  SIGN_IN_TO_QUEUE_MESSAGE,
} from './routes/waitingRoom/gates.ts';
import { NO_PLACE_MESSAGE, NO_QUEUE_MESSAGE } from './routes/waitingRoom/index.ts';
import * as offer from './routes/waitingRoom/offer.ts';
import * as waitingListDomain from './domain/waitingRoom/waitingList.ts';
import * as seatsDomain from './domain/seats.ts';
import { SEATSIO_UNAVAILABLE } from './providers/seatsio.ts';
import * as afterSale from './domain/afterSale.ts';
import * as hold from './domain/hold.ts';
import { NOT_HELD_MESSAGE } from './domain/hold.ts';
import * as marketing from './domain/marketing.ts';
import * as bankTransfer from './domain/payment/bankTransfer.ts';
import * as paymentDetails from './domain/payment/details.ts';
import * as paidFor from './domain/payment/paidFor.ts';
import * as payments from './domain/payment/payments.ts';
import * as reconcile from './domain/payment/reconcile.ts';
import * as sales from './domain/sales.ts';
import * as tickets from './domain/tickets.ts';
import * as crossSite from './http/crossSite.ts';
import * as offSession from './domain/instalments/offSession.ts';
import { UNKEYED_MESSAGES } from './http/demoMode.ts';
import { DATABASE_UNAVAILABLE } from './db/unavailable.ts';
import { BUYER_LIMIT_MESSAGE } from './domain/limits.ts';
import { WAITING_LIST_INVALID_MESSAGE, WAITING_LIST_NO_PROOF_MESSAGE } from './routes/waitingRoom/waitingList.ts';
import { inLocale } from './languageScope.ts';
import * as feedback from './mail/feedback.ts';
import * as instalments from './mail/instalments.ts';
import * as mailingList from './mail/mailingList.ts';
import * as referralReward from './mail/referralReward.ts';
import * as resumeLink from './mail/resumeLink.ts';
import * as signInCode from './mail/signInCode.ts';
import * as transfer from './mail/transfer.ts';
import type { MailContent } from './mail/transport.ts';
import * as waitingList from './mail/waitingList.ts';
import * as wallet from './mail/wallet.ts';
import { SANDBOX_CARDS } from '../contract/index.ts';
import { drivers, openWorld, solvedChallenge, Visitor, type TestWorld } from './test/harness.ts';
import { hotEvent } from './test/fixtures.ts';
import { accountFor, signInAs } from './test/accounts.ts';
import { latestMail } from './mail/index.ts';
import { offerReleasedTickets } from './domain/waitingRoom/waitingList.ts';
import { queueStatus, WAITING_LIST_PATH } from '../contract/waitingRoom.ts';

const HTML = { accept: 'text/html' };

/** Words a date or a time is written with: the pseudo-locales write dates as English does (data). */
const DATE_WORDS =
  /\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun|Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|am|pm|GMT|BST)\b/g;

/**
 * Whether `text` is data only: once every string of the data, every e-mail address, web address
 * and date word is taken out, no letter is left.
 */
function dataOnly(data: string[]): (text: string) => boolean {
  const strings = [...new Set(data.map((d) => d.trim()).filter((d) => d.length >= 2 && /[A-Za-z]/.test(d)))].sort(
    (a, b) => b.length - a.length,
  );
  return (text) => {
    let rest = text;
    for (const d of strings) if (rest.includes(d)) rest = rest.split(d).join(' ');
    rest = rest
      .replace(/https?:\/\/\S+/g, ' ')
      .replace(/[^\s<>()]+@[^\s<>()]+/g, ' ')
      .replace(DATE_WORDS, ' ');
    return !/[A-Za-z]/.test(rest);
  };
}

function decode(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCharCode(Number(n)))
    .replace(/&#x([0-9a-f]+);/gi, (_, n: string) => String.fromCharCode(parseInt(n, 16)))
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&');
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);
const SPOKEN = ['aria-label', 'aria-description', 'placeholder', 'title', 'alt'];

/**
 * The page's text as a reader meets it: the text of its body and its title, and the labels and
 * placeholders a buyer reads or hears, but for scripts, styles and what is marked as in a language
 * of its own (`lang`, as the language picker names each language in itself).
 */
function textsOf(page: string): string[] {
  const title = /<title>([\s\S]*?)<\/title>/.exec(page)?.[1];
  const start = page.indexOf('<body');
  const body = (start < 0 ? page : page.slice(start))
    .replace(/<(script|style|template|noscript)\b[\s\S]*?<\/\1>/gi, '')
    .replace(/<!--[\s\S]*?-->/g, '');
  const found: string[] = title ? [decode(title)] : [];
  const open: { name: string; own: boolean }[] = [];
  const token = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>|([^<]+)/g;
  for (const [, closing, tag, attributes = '', text] of body.matchAll(token)) {
    const own = open.at(-1)?.own ?? false;
    if (text !== undefined) {
      if (!own && text.trim()) found.push(decode(text).trim());
      continue;
    }
    const name = tag!.toLowerCase();
    if (closing) {
      const at = open.map((o) => o.name).lastIndexOf(name);
      if (at >= 0) open.length = at;
      continue;
    }
    const attrs = new Map(
      [...attributes.matchAll(/([a-zA-Z-]+)(?:="([^"]*)"|='([^']*)')?/g)].map(([, k, v1, v2]) => [
        k!.toLowerCase(),
        decode(v1 ?? v2 ?? ''),
      ]),
    );
    const ownLanguage = own || (attrs.has('lang') && name !== 'html');
    if (!ownLanguage) for (const a of SPOKEN) if (attrs.get(a)) found.push(`${a}="${attrs.get(a)}"`);
    if (!VOID.has(name) && !attributes.trim().endsWith('/')) open.push({ name, own: ownLanguage });
  }
  return found;
}

/** What the page says that did not come through the catalogue. */
function unaccented(page: string, isData: (text: string) => boolean): string[] {
  return textsOf(page).filter((text) => untranslated(text.replace(/^[\w-]+="([\s\S]*)"$/, '$1'), isData));
}

describe('the rule', () => {
  const isData = dataOnly(['Summer Jazz on the Quay', 'Harbour Hall', 'Ann Lee']);

  it('finds English written into a page, and passes accented words and data', () => {
    const page = `<html lang="en-XA"><head><title>[Ŵĥáţ’š óñ] · Holdfast</title></head><body>
      <h1>[Ŵĥáţ’š óñ]</h1><span>Total</span><p>Summer Jazz on the Quay</p><p>Sat, 16 Jan 2027, 5:30 pm · Harbour Hall</p>
      <p>£12.50</p><button aria-label="One more Adult">+</button><select><option lang="cy">Cymraeg</option></select>
      <script>const words = 'Not shown';</script><p>Ann Lee (ann@example.com)</p></body></html>`;
    expect(unaccented(page, isData)).toEqual(['Total', 'aria-label="One more Adult"']);
  });
});

describe('the refusals a page shows', () => {
  it('are each in the catalogue word for word, so a page shows them in its language', () => {
    // The waiting list's messages with values, and its word of a buyer having left, are written with
    // `t()` in the page's language; their `…_MESSAGE` is the source's English, for the tests.
    const writtenInPlace = new Set<unknown>([
      waitingListDomain.LEFT_MESSAGE,
      waitingListDomain.WAITING_LIST_ADDRESS_CAP_MESSAGE,
    ]);
    const refusals = [
      users,
      oneTimeCode,
      account,
      waitingListDomain,
      offer,
      seatsDomain,
      afterSale,
      hold,
      marketing,
      bankTransfer,
      paymentDetails,
      paidFor,
      payments,
      reconcile,
      sales,
      tickets,
      crossSite,
      offSession,
    ].flatMap((module) =>
      Object.entries(module)
        .filter(([name, value]) => name.endsWith('_MESSAGE') && typeof value === 'string' && !writtenInPlace.has(value))
        .map(([, value]) => value as string),
    );
    const queueRefusals = [
      TURN_MAIL_INVALID_MESSAGE,
      TURN_MAIL_NOT_WAITING_MESSAGE,
      SIGN_IN_TO_QUEUE_MESSAGE,
      WAITING_LIST_INVALID_MESSAGE,
      WAITING_LIST_NO_PROOF_MESSAGE,
      waitingListDomain.WAITING_LIST_UNKNOWN_TYPE,
      QUEUE_FIRST_MESSAGE,
      ADMISSION_USED_MESSAGE,
      NO_PLACE_MESSAGE,
      NO_QUEUE_MESSAGE,
      SEATSIO_UNAVAILABLE,
      ...Object.values(UNKEYED_MESSAGES),
      DATABASE_UNAVAILABLE,
    ];
    const untranslatedRefusals = [...refusals, ...Object.values(NOTICES), ...queueRefusals].filter(
      (english) => !ACCENTED.test(inLocale('en-XA', () => inActiveLanguage(english))),
    );
    expect(untranslatedRefusals).toEqual([]);
  });

  it('with values, are written in the active language', () => {
    const written = [
      () => waitingListDomain.waitingListAddressCapMessage(),
      () => waitingListDomain.waitingListJoinedMessage('Adult', 3, 24),
      () => waitingListDomain.waitingListAlreadyMessage('Adult'),
      () => waitingListDomain.waitingListBeforeOnSaleMessage(new Date('2026-12-18T20:00:00Z')),
      () => waitingListDomain.waitingListOverOrderMessage('Adult', 6),
      () => waitingListDomain.waitingListOverCapacityMessage('Adult', 40),
      () => waitingListDomain.waitingListBuyerCapMessage(8),
      () => placesPerAddressMessage(2),
      () => BUYER_LIMIT_MESSAGE(6),
    ];
    const isData = dataOnly(['Adult']);
    expect(written.map((write) => inLocale('en-XA', write)).filter((text) => untranslated(text, isData))).toEqual([]);
    expect(inLocale('en-GB', written[0]!)).toBe(waitingListDomain.WAITING_LIST_ADDRESS_CAP_MESSAGE);
    expect(inLocale('cy', () => placesPerAddressMessage(2))).toBe(
      'Mae gan y cysylltiad rhyngrwyd hwn 2 lle yn y ciw hwn yn barod, sef y nifer fwyaf a ganiateir i un cysylltiad. Gall pob prynwr gadw ei le mewn un porwr.',
    );
  });
});

describe.each(drivers)('the server’s pages in the accented pseudo-locale on %s', (driver) => {
  let w: TestWorld;
  let isData: (text: string) => boolean;
  /**
   * Strings of the test's own, shown back as data; the names of countries in an address (the
   * server's, in English); and the card processor's own refusals (the processor's words, as Stripe's are).
   */
  const own = ['Grace Hopper', 'Holdfast', ...COUNTRIES.map((c) => c.name), ...Object.values(SANDBOX_MESSAGES)];

  /** Every string the database holds that a page may show as it is. */
  async function dataOfDatabase(): Promise<string[]> {
    const { db } = w.database;
    const tables = [
      schema.users,
      schema.organisers,
      schema.events,
      schema.eventDates,
      schema.ticketTypes,
      schema.giftVouchers,
      schema.charities,
      schema.tickets,
      schema.sales,
      schema.userAddresses,
      schema.savedPaymentMethods,
      schema.transfers,
      schema.instalments,
      schema.seats,
      schema.saleDeliveryAddresses,
    ];
    const strings: string[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string') strings.push(value);
      else if (Array.isArray(value)) value.forEach(collect);
      else if (value && typeof value === 'object' && !(value instanceof Date)) Object.values(value).forEach(collect);
    };
    for (const table of tables) collect(await db.select().from(table));
    return strings;
  }

  /** A visitor whose pages are in en-XA, chosen with the footer's picker (demo mode accepts the pseudo-locales). */
  async function accented(v = new Visitor(w.app, HTML)): Promise<Visitor> {
    const chosen = await v.request({ method: 'POST', url: '/language/', body: 'language=en-XA&back=/' });
    expect(chosen.statusCode).toBe(303);
    return v;
  }

  /** The page at `url` (or the answer to a form), drawn in en-XA: its untranslated text. */
  async function check(
    v: Visitor,
    opts: { method?: 'GET' | 'POST'; url: string; body?: string },
    status?: number,
  ): Promise<string[]> {
    const res = await v.request({ method: opts.method ?? 'GET', url: opts.url, body: opts.body });
    if (status !== undefined) expect(res.statusCode, opts.url).toBe(status);
    expect(res.body, `${opts.url} answered ${res.statusCode}`).toContain('lang="en-XA"');
    return unaccented(res.body, isData);
  }

  /** A buyer with an order, a transfer not yet accepted, a payment plan with a refused card, a saved address and card. */
  let buyer: { v: Visitor; order: string; plan: string };

  beforeAll(async () => {
    w = await openWorld(driver);
    const { db } = w.database;
    const tom = w.demo.users.notSubscribed;
    const v = new Visitor(w.app, HTML);
    expect((await v.request({ method: 'POST', url: '/signin/', body: `user_id=${tom.id}` })).statusCode).toBe(303);
    expect((await v.add({ [w.demo.tickets.jazzGeneral]: 2 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const order = (await v.checkout()).sale_reference!;
    const [sale] = await db.select({ id: schema.sales.id }).from(schema.sales).where(eq(schema.sales.reference, order));
    expect((await db.transaction((tx) => completeSale(tx, sale!.id, w.clock.now))).booked).toBe(true);
    expect(await v.json('deliverToBitticket')).toEqual({ delivery_completed: true });
    const transferred = {
      ticket_id: w.demo.tickets.jazzGeneral,
      name: 'Grace Hopper',
      email: `grace-${driver}@example.com`,
      qty: 1,
      is_gift: false,
      send_gift: 'Schedule' as const,
      delivery_date: '',
      delivery_time: '',
      message: '',
    };
    expect((await v.call('setTransfers', { transfers: [transferred] })).statusCode).toBe(200);
    // A payment plan of the festival's weekend, on a saved sandbox card.
    expect((await v.add({ [w.demo.plans.weekend]: 1 })).statusCode).toBe(200);
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    await v.json('updateBasketState', { state: 'payment' });
    const plan = (await v.checkout()).sale_reference!;
    const card = (
      await v.call('saveSandboxCard', { number: SANDBOX_CARDS.success, expiry: '12/34', cvc: '123' })
    ).json();
    expect(
      (
        await v.call('payWithInstalment', {
          instalment_option: '2',
          contact_number: '07700 900123',
          new_payment_method: card,
        })
      ).json(),
    ).toEqual({ status: 'success', url: null });
    await db.insert(schema.userAddresses).values({
      userId: tom.id,
      firstName: 'Tom',
      lastName: 'Okafor',
      address1: '9 Call Lane',
      town: 'Leeds',
      postcode: 'LS1 7DH',
      country: '1',
      createdAt: w.clock.now,
    });
    buyer = { v: await accented(v), order, plan };
    isData = dataOnly([...(await dataOfDatabase()), ...own]);
  });
  afterAll(async () => w?.close());

  it('draws the catalogue, every event and organiser page and the information pages with no unaccented word', async () => {
    const v = await accented();
    const { db } = w.database;
    const events = await db.select({ id: schema.events.id }).from(schema.events);
    const organisers = await db.select({ id: schema.organisers.id }).from(schema.organisers);
    const found: Record<string, string[]> = {};
    const pages = [
      '/all-events/',
      ...events.map((e) => `/event/${e.id}/`),
      ...organisers.map((o) => `/organiser/${o.id}/`),
      '/event/999999/',
      '/organiser/999999/',
      '/refund-policy/',
      '/legal-information/purchase-terms-and-conditions/',
      '/mailing-list',
      '/signout/',
      '/events/book_seats/999999/',
    ];
    for (const url of pages) found[url] = await check(v, { url });
    found['POST /mailing-list'] = await check(v, {
      method: 'POST',
      url: '/mailing-list',
      body: `email=news-${driver}@example.com`,
    });
    found['confirm a bad link'] = await check(v, { url: `${users.MAILING_LIST_CONFIRM_PATH}?token=bad-token` });
    expect(Object.entries(found).filter(([, texts]) => texts.length > 0)).toEqual([]);
  });

  it('draws sign-in at each of its steps, the wallet and account pages signed out, and the links’ refusals with no unaccented word', async () => {
    const v = await accented();
    const email = `newcomer-${driver}@example.com`;
    const found: Record<string, string[]> = {
      signin: await check(v, { url: '/signin/' }, 200),
      'signin code': await check(
        v,
        { method: 'POST', url: '/signin/', body: `email=${encodeURIComponent(email)}` },
        200,
      ),
      'signin wrong code': await check(
        v,
        { method: 'POST', url: '/signin/code/', body: `email=${encodeURIComponent(email)}&code=12` },
        400,
      ),
      'signin bad address': await check(v, { method: 'POST', url: '/signin/', body: 'email=nope' }, 400),
      account: await check(v, { url: '/account/' }),
      wallet: await check(v, { url: '/account/wallet/' }),
      pass: await check(v, { url: '/account/wallet/passes/NOPE.pkpass' }, 404),
      'google stand-in': await check(v, { url: `${GOOGLE_STAND_IN_PATH}not-a-token` }, 400),
      'smart checkout': await check(v, { url: `${SMART_CHECKOUT_PATH}?sale=nope&sig=nope` }),
    };
    const [sent] = await w.database.db.select().from(schema.outbox).where(eq(schema.outbox.recipient, email));
    const code = /\b(\d{6})\b/.exec(sent!.subject)?.[1];
    found['signin name'] = await check(
      v,
      { method: 'POST', url: '/signin/code/', body: `email=${encodeURIComponent(email)}&code=${code}` },
      200,
    );
    expect(Object.entries(found).filter(([, texts]) => texts.length > 0)).toEqual([]);
  });

  it('draws a buyer’s account, receipt, plan card page and wallet with no unaccented word', async () => {
    const { v, order, plan } = buyer;
    const found: Record<string, string[]> = {
      account: await check(v, { url: '/account/' }, 200),
      notice: await check(v, { url: '/account/?done=address-default' }, 200),
      receipt: await check(v, { url: `/account/orders/${order}/` }, 200),
      'no receipt': await check(v, { url: '/account/orders/HF-NOPE/' }, 404),
      card: await check(v, { url: `/account/plans/${plan}/card/` }, 200),
      'no plan': await check(v, { url: '/account/plans/HF-NOPE/card/' }, 404),
      'card refused': await check(v, {
        method: 'POST',
        url: `/account/plans/${plan}/card/`,
        body: 'number=1234&expiry=12/34&cvc=123',
      }),
      wallet: await check(v, { url: '/account/wallet/' }, 200),
      signin: await check(v, { url: '/signin/' }, 200),
      signout: await check(v, { url: '/signout/' }, 200),
      'signed out everywhere': await check(v, { method: 'POST', url: '/signout/everywhere/', body: '' }, 200),
    };
    expect(Object.entries(found).filter(([, texts]) => texts.length > 0)).toEqual([]);
  });
  /**
   * The queue page at each of its states (finding a place, before the on-sale, waiting, sold out with
   * its waiting list, the time to buy ended, signing in first), the turn mail's answers, and the event
   * page of a buyer whose turn it is, with its notice and its Leave button.
   */
  it('draws the queue page at each state and the event page of a buyer’s turn with no unaccented word', async () => {
    const { db } = w.database;
    const now = w.clock.now.getTime();
    let ip = 0;
    const queued = async (opts: {
      capacity: number;
      onSaleAt: Date;
      maxShoppers?: number;
      signInToQueue?: boolean;
    }) => {
      const { types } = await hotEvent(db, { capacity: opts.capacity, types: 2 });
      const dateId = types[0]!.eventDateId;
      await db.insert(schema.eventDateQueues).values({
        eventDateId: dateId,
        onSaleAt: opts.onSaleAt,
        maxShoppers: opts.maxShoppers ?? 100,
        admitPerMinute: 60,
        admissionSeconds: 600,
        pollSeconds: 2,
        signInToQueue: opts.signInToQueue ?? false,
      });
      const [date] = await db
        .select({ eventId: schema.eventDates.eventId })
        .from(schema.eventDates)
        .where(eq(schema.eventDates.id, dateId));
      // The process reads its queues once a second; the new event's strings are data.
      w.clock.advance(1000);
      isData = dataOnly([...(await dataOfDatabase()), ...own]);
      return { dateId, eventId: date!.eventId, typeId: types[0]!.id };
    };
    const buyer = async () => accented(new Visitor(w.app, HTML, `10.77.0.${++ip}`));
    const join = async (v: Visitor, dateId: number) => {
      const res = await v.request({
        method: 'POST',
        url: `/ajax/queue/${dateId}/join/`,
        body: new URLSearchParams({ altcha: await solvedChallenge(v) }).toString(),
        headers: { accept: 'application/json' },
      });
      expect(res.statusCode).toBe(200);
      return queueStatus.parse(res.json());
    };
    const status = async (v: Visitor, dateId: number) =>
      queueStatus.parse(
        (
          await v.request({
            method: 'GET',
            url: `/ajax/queue/${dateId}/status/`,
            headers: { accept: 'application/json' },
          })
        ).json(),
      );
    const found: Record<string, string[]> = {};

    // Before the on-sale: the page without a place, and with one.
    const later = await queued({ capacity: 10, onSaleAt: new Date(now + 30 * 60_000) });
    const early = await buyer();
    found['finding a place'] = await check(early, { url: `/queue/${later.dateId}/` }, 200);
    expect((await join(early, later.dateId)).state).toBe('before-sale');
    found['before the on-sale'] = await check(early, { url: `/queue/${later.dateId}/` }, 200);
    found['turn mail asked'] = await check(early, { url: `/queue/${later.dateId}/?notify=sent` }, 200);
    found['turn mail bad address'] = await check(
      early,
      { method: 'POST', url: `/queue/${later.dateId}/notify/`, body: 'email=nope' },
      400,
    );
    found['turn mail without a place'] = await check(
      await buyer(),
      { method: 'POST', url: `/queue/${later.dateId}/notify/`, body: `email=queue-${driver}@example.com` },
      409,
    );

    // Open, one shopper at a time: the first is let in, the second waits.
    const open = await queued({ capacity: 10, onSaleAt: new Date(now - 1000), maxShoppers: 1 });
    const first = await buyer();
    const second = await buyer();
    await join(first, open.dateId);
    for (let i = 0; i < 10 && (await status(first, open.dateId)).state !== 'admitted'; i++) w.clock.advance(1000);
    expect((await status(first, open.dateId)).state).toBe('admitted');
    expect((await join(second, open.dateId)).state).toBe('waiting');
    found.waiting = await check(second, { url: `/queue/${open.dateId}/` }, 200);
    const turn = await first.request({ method: 'GET', url: `/event/${open.eventId}/` });
    expect(turn.statusCode).toBe(200);
    expect(turn.body).toContain('data-admission-until');
    found['event page of a turn'] = unaccented(turn.body, isData);

    // Sold out, with its waiting list.
    const soldOut = await queued({ capacity: 0, onSaleAt: new Date(now - 1000) });
    const late = await buyer();
    await join(late, soldOut.dateId);
    for (let i = 0; i < 5 && (await status(late, soldOut.dateId)).state !== 'sold-out'; i++) w.clock.advance(1000);
    expect((await status(late, soldOut.dateId)).state).toBe('sold-out');
    found['sold out'] = await check(late, { url: `/queue/${soldOut.dateId}/` }, 200);
    found['a ticket type’s waiting list'] = await check(late, { url: `/waiting-list/${soldOut.typeId}/` }, 200);
    found['waiting list refused'] = await check(
      late,
      { method: 'POST', url: WAITING_LIST_PATH, body: 'email=nope' },
      400,
    );

    // The time to buy ended, and a queue of one place per account.
    w.clock.advance(601_000);
    found.ended = await check(first, { url: `/queue/${open.dateId}/` }, 200);
    const accounts = await queued({
      capacity: 10,
      onSaleAt: new Date(w.clock.now.getTime() - 1000),
      signInToQueue: true,
    });
    found['sign in first'] = await check(await buyer(), { url: `/queue/${accounts.dateId}/` }, 200);
    expect(Object.entries(found).filter(([, texts]) => texts.length > 0)).toEqual([]);
  });

  it('answers the checkout’s calls with refusals in the request’s language', async () => {
    const accentedCaller = await accented(new Visitor(w.app, {}, '10.79.0.1'));
    const welshCaller = new Visitor(w.app, { 'accept-language': 'cy' }, '10.79.0.2');
    const empty = (v: Visitor) => v.json('reserveTickets');
    const extend = async (v: Visitor) => (await v.call('extendHold')).json() as { error: string };
    for (const error of [(await empty(accentedCaller)).error as string, (await extend(accentedCaller)).error])
      expect(ACCENTED.test(error), error).toBe(true);
    expect(await empty(welshCaller)).toEqual({ reserved: false, error: 'Mae eich basged yn wag' });
    expect((await extend(welshCaller)).error).toBe(
      "Nid yw eich tocynnau'n cael eu cadw mwyach, felly does dim modd ychwanegu rhagor o amser.",
    );
    // And in English as the spec writes them.
    expect((await extend(new Visitor(w.app, {}, '10.79.0.3'))).error).toBe(NOT_HELD_MESSAGE);
  });

  /**
   * A waiting list offer's link at each step (opened, the code sent, a code of the wrong shape and
   * a wrong one, a basket to replace, another account signed in, claimed by another browser, ended,
   * bought, not a link at all); the doors' refusal of a queued date's tickets to a buyer who has not
   * queued; and the same offer page and refusal in Welsh for a browser that asks for it.
   */
  it('draws a waiting list offer’s pages at each step and the doors’ refusal with no unaccented word, and in Welsh when asked', async () => {
    const { db } = w.database;
    let ip = 0;
    const mail = {
      mailer: { transport: null, from: 'tickets@example.test' },
      brandName: 'Holdfast',
      publicUrl: 'http://127.0.0.1:3000',
      secret: 'test-secret',
    };
    const offerTo = async (email: string) => {
      const { types } = await hotEvent(db, { capacity: 4, types: 1 });
      await db
        .insert(schema.waitingListEntries)
        .values({ ticketTypeId: types[0]!.id, email, qty: 1, joinedAt: w.clock.now });
      expect(await offerReleasedTickets(db, mail, w.clock.now)).toBe(1);
      const [sent] = await latestMail(db, { recipient: email });
      const [entry] = await db
        .select()
        .from(schema.waitingListEntries)
        .where(eq(schema.waitingListEntries.email, email));
      return { link: /\/waiting-list\/offer\/[\w-]+\//.exec(sent!.body)![0], saleId: entry!.offerSaleId! };
    };
    const browser = () => new Visitor(w.app, HTML, `10.78.0.${++ip}`);
    /** The newest code sent to an address, whatever language its e-mail is in. */
    const codeSentTo = async (to: string) =>
      /\b(\d{6})\b/.exec((await latestMail(db, { recipient: to }))[0]!.subject)![1]!;
    const found: Record<string, string[]> = {};

    const email = `offered-${driver}@example.com`;
    const { link, saleId } = await offerTo(email);
    isData = dataOnly([...(await dataOfDatabase()), ...own]);
    const v = await accented(browser());
    found.opened = await check(v, { url: link }, 200);
    found['code sent'] = await check(v, { method: 'POST', url: `${link}code/`, body: '' }, 200);
    found['code of the wrong shape'] = await check(v, { method: 'POST', url: `${link}claim/`, body: 'code=12' }, 400);
    const code = await codeSentTo(email);
    found['wrong code'] = await check(
      v,
      { method: 'POST', url: `${link}claim/`, body: `code=${code === '000000' ? '111111' : '000000'}` },
      400,
    );
    // A browser whose basket has tickets is asked before it is replaced.
    const { types } = await hotEvent(db, { capacity: 10, types: 1 });
    isData = dataOnly([...(await dataOfDatabase()), ...own]);
    const withBasket = await accented(browser());
    expect((await withBasket.add({ [types[0]!.id]: 1 })).statusCode).toBe(200);
    found['a basket to replace'] = await check(withBasket, { url: link }, 200);
    found['a basket, the code sent'] = await check(
      withBasket,
      { method: 'POST', url: `${link}code/`, body: 'replace=1' },
      200,
    );
    found['a basket, claimed without replacing'] = await check(
      withBasket,
      { method: 'POST', url: `${link}claim/`, body: `code=${await codeSentTo(email)}` },
      409,
    );
    // Signed in as another account.
    const other = browser();
    await accountFor(w, `someone-else-${driver}@example.com`);
    await signInAs(w, other, `someone-else-${driver}@example.com`);
    found['another account'] = await check(await accented(other), { url: link }, 403);
    // Claimed here, then refused to a second browser.
    const claimer = browser();
    await claimer.request({ method: 'POST', url: `${link}code/`, body: '' });
    const claimed = await claimer.request({
      method: 'POST',
      url: `${link}claim/`,
      body: `code=${await codeSentTo(email)}`,
    });
    expect(claimed.statusCode).toBe(303);
    const second = await accented(browser());
    await second.request({ method: 'POST', url: `${link}code/`, body: '' });
    found['claimed in another browser'] = await check(
      second,
      { method: 'POST', url: `${link}claim/`, body: `code=${await codeSentTo(email)}` },
      409,
    );
    found['not a link'] = await check(v, { url: '/waiting-list/offer/not-a-real-offer-token-at-all/' }, 404);
    // Bought, and (another offer) ended.
    await db.update(schema.sales).set({ paidAt: w.clock.now }).where(eq(schema.sales.id, saleId));
    found.bought = await check(v, { url: link }, 410);
    const late = await offerTo(`late-${driver}@example.com`);
    isData = dataOnly([...(await dataOfDatabase()), ...own]);
    const welsh = new Visitor(w.app, { ...HTML, 'accept-language': 'cy' }, `10.78.0.${++ip}`);
    const inWelsh = await welsh.request({ method: 'GET', url: late.link });
    expect(inWelsh.statusCode).toBe(200);
    expect(inWelsh.body).toContain('lang="cy"');
    expect(inWelsh.body).toContain('<button class="button" type="submit">Anfon cod ataf drwy e-bost</button>');
    w.clock.advance(7 * 24 * 3600_000);
    found.ended = await check(v, { url: late.link }, 410);
    const endedInWelsh = await welsh.request({ method: 'GET', url: late.link });
    expect(endedInWelsh.statusCode).toBe(410);
    expect(decode(endedInWelsh.body)).toContain(
      "Mae'r cynnig hwn wedi dod i ben: cafodd y tocynnau oedd yn cael eu cadw i chi eu rhyddhau i'r prynwr nesaf ar y rhestr aros.",
    );

    // The doors: a queued date's tickets, added by a buyer who has not queued, answered in the buyer's language.
    const { types: queuedTypes } = await hotEvent(db, { capacity: 10, types: 1 });
    await db.insert(schema.eventDateQueues).values({
      eventDateId: queuedTypes[0]!.eventDateId,
      onSaleAt: new Date(w.clock.now.getTime() - 1000),
      maxShoppers: 100,
      admitPerMinute: 60,
      admissionSeconds: 600,
      pollSeconds: 2,
      signInToQueue: false,
    });
    w.clock.advance(1000);
    const refusedHere = await (await accented(browser())).add({ [queuedTypes[0]!.id]: 1 });
    expect(refusedHere.statusCode).toBe(403);
    const refusal = (refusedHere.json() as { error: string }).error;
    expect(ACCENTED.test(refusal), refusal).toBe(true);
    expect(refusal).not.toBe(QUEUE_FIRST_MESSAGE);
    const refusedInWelsh = await new Visitor(w.app, { 'accept-language': 'cy' }, `10.78.0.${++ip}`).add({
      [queuedTypes[0]!.id]: 1,
    });
    expect([refusedInWelsh.statusCode, refusedInWelsh.json()]).toMatchObject([
      403,
      {
        error:
          "Mae'r tocynnau hyn yn cael eu gwerthu drwy giw. Ymunwch ag ef o dudalen y digwyddiad, a chadwch eich tocynnau pan ddaw eich tro.",
      },
    ]);
    expect(Object.entries(found).filter(([, texts]) => texts.length > 0)).toEqual([]);
  });
});

describe('the e-mails and text messages in the accented pseudo-locale', () => {
  const startsAt = new Date('2026-12-18T20:00:00Z');
  const ticket = {
    code: 'HFT-1',
    eventTitle: 'Jazz night',
    startsAt,
    venue: 'Harbour Hall',
    ticketName: 'Adult',
    seat: null,
    holderName: 'Ann Lee',
  } as WalletTicket;
  const schedule = [
    { seq: 1, dueAt: startsAt, amount: 1500, status: 'paid' as const },
    { seq: 2, dueAt: startsAt, amount: 1500, status: 'failed' as const },
    { seq: 3, dueAt: startsAt, amount: 1500, status: 'scheduled' as const },
  ];
  const plan = { saleReference: 'HF123', seq: 2, amount: 1500 };
  const url = 'https://holdfast.example/account/';
  const buyer = { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' };
  const transferred = {
    recipientName: 'Ann Lee',
    senderName: 'Tom Hughes',
    qty: 2,
    ticketName: 'Adult',
    eventTitle: 'Jazz night',
    startsAt,
    isGift: true,
    message: 'Enjoy!',
    acceptUrl: url,
  };
  const reward = {
    firstName: 'Ann',
    eventTitle: 'Jazz night',
    organiserName: 'Riverside Arts',
    rewardText: 'A free drink at the bar',
    code: 'THANKS-ABC',
    allEventsUrl: url,
  };

  /** Every template, by its export's name, with data to write it from. */
  const written: Record<string, () => MailContent | string> = {
    signInCodeMail: () => signInCode.signInCodeMail('Holdfast', '123456'),
    walletMail: () =>
      wallet.walletMail('Holdfast', {
        saleReference: 'HF123',
        tickets: [ticket, { ...ticket, seat: 'A1' }],
        walletUrl: url,
      }),
    transferMail: () => transfer.transferMail('Holdfast', transferred),
    feedbackMail: () =>
      feedback.feedbackMail('Holdfast', {
        saleReference: 'HF123',
        buyer,
        events: [{ title: 'Jazz night', organiser: 'Riverside Arts' }],
        message: 'Lovely evening.',
      }),
    feedbackSubject: () => feedback.feedbackSubject(null),
    paymentScheduleMail: () => instalments.paymentScheduleMail({ saleReference: 'HF123', schedule, settingsUrl: url }),
    instalmentReminderMail: () => instalments.instalmentReminderMail({ ...plan, dueAt: startsAt, settingsUrl: url }),
    instalmentReminderSms: () =>
      instalments.instalmentReminderSms('Holdfast', { ...plan, saleReference: null, dueAt: startsAt }),
    instalmentPaidMail: () => instalments.instalmentPaidMail({ ...plan, schedule }),
    finalInstalmentPaidMail: () =>
      instalments.finalInstalmentPaidMail({ saleReference: null, amount: 1500, walletUrl: url }),
    instalmentRetryMail: () =>
      instalments.instalmentRetryMail({
        ...plan,
        reason: 'Your card was declined.',
        retryAt: startsAt,
        settingsUrl: url,
      }),
    planStoppedMail: () =>
      instalments.planStoppedMail({
        ...plan,
        reason: 'Your card was declined.',
        attempts: 3,
        organiserName: 'Riverside Arts',
        settingsUrl: url,
      }),
    planFailedMail: () =>
      instalments.planFailedMail({
        ...plan,
        reason: 'Your card was declined.',
        attempts: 3,
        buyerEmail: 'ann@example.com',
      }),
    mailingListConfirmationMail: () => mailingList.mailingListConfirmationMail('Holdfast', { link: url, hours: 48 }),
    referralRewardMail: () => referralReward.referralRewardMail({ ...reward, discountPercent: 10 }),
    resumeLinkMail: () =>
      resumeLink.resumeLinkMail('Holdfast', { saleReference: 'HF123', heldUntil: startsAt, link: url }),
    waitingListJoinedMail: () =>
      waitingList.waitingListJoinedMail('Holdfast', {
        title: 'Jazz night',
        typeName: 'Adult',
        qty: 2,
        position: 3,
        offerHours: 24,
        leaveLink: url,
      }),
    waitingListOfferMail: () =>
      waitingList.waitingListOfferMail('Holdfast', {
        title: 'Jazz night',
        typeName: 'Adult',
        qty: 2,
        startsAt,
        link: url,
        until: startsAt,
      }),
    turnMail: () => waitingList.turnMail('Holdfast', { title: 'Jazz night', startsAt, minutes: 10, link: url }),
  };
  const alsoWritten: Record<string, () => MailContent | string> = {
    'referralRewardMail in person': () => referralReward.referralRewardMail({ ...reward, discountPercent: null }),
    'transferMail not a gift': () =>
      transfer.transferMail('Holdfast', { ...transferred, qty: 1, isGift: false, message: '' }),
    'feedbackMail without a buyer': () =>
      feedback.feedbackMail('Holdfast', { saleReference: null, buyer: null, events: [], message: 'Hi' }),
  };
  const isData = dataOnly([
    'Holdfast',
    'HF123',
    'HFT-1',
    'A1',
    'Jazz night',
    'Harbour Hall',
    'Adult',
    'Ann Lee',
    'Ann',
    'Lee',
    'Tom Hughes',
    'Enjoy!',
    'Riverside Arts',
    'Lovely evening.',
    'Hi',
    'Your card was declined.',
    'A free drink at the bar',
    'THANKS-ABC',
  ]);

  it('checks every template of server/mail', () => {
    const templates = [
      feedback,
      instalments,
      mailingList,
      referralReward,
      resumeLink,
      signInCode,
      transfer,
      waitingList,
      wallet,
    ].flatMap((module) =>
      Object.entries(module)
        .filter(([name, value]) => typeof value === 'function' && /(Mail|Sms|Subject)$/.test(name))
        .map(([name]) => name),
    );
    expect(Object.keys(written).sort()).toEqual(templates.sort());
  });

  it.each(Object.keys({ ...written, ...alsoWritten }))('%s says no unaccented word', (name) => {
    const content = inLocale('en-XA', () => ({ ...written, ...alsoWritten })[name]!());
    const lines = typeof content === 'string' ? [content] : [content.subject, ...content.text.split('\n')];
    expect(lines.filter((line) => untranslated(line, isData))).toEqual([]);
    // And in English it reads as before: the same template, the source's words.
    const english = { ...written, ...alsoWritten }[name]!();
    expect(typeof english === 'string' ? english : english.text).toMatch(/[A-Za-z]{3}/);
  });
});
