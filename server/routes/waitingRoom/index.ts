/**
 * The waiting room's routes: the queue page, a buyer's place (polled; answered from a signed cookie
 * and the process's once-a-second view of the queue, never a database write), joining (once per
 * browser, with the proof of work), the waiting list, and the admission the event page and the
 * reservation ask for on a queued event date.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod/mini';
import type { AppDeps } from '../../http/deps.ts';
import { bindingOf, onSessionReplaced, sessionBindingOf, sessionIdOfHeader, userIdOf } from '../../http/session.ts';
import { Refusal } from '../../domain/refusal.ts';
import { Html, html, page } from '../../views/html.ts';
import { builtScripts } from '../../views/builtScripts.ts';
import { askForTurnMail } from '../../domain/waitingRoom/turnMail.ts';
import { openOnSaleNow } from '../../domain/waitingRoom/demo.ts';
import {
  admitOnce,
  endTurn,
  joinAs,
  numberOf,
  placeOfAccount,
  type QueuedDate,
  type QueueView,
  type WaitingRooms,
} from '../../domain/waitingRoom/room.ts';
import { placesPerAddressMessage, SIGN_IN_TO_QUEUE_MESSAGE } from './gates.ts';
import { QueuePush } from './push.ts';
import { admissionCookie, placeCookie, QUEUE_COOKIE, type Place } from '../../domain/waitingRoom/tokens.ts';
import { queueCookies } from './cookies.ts';
import { registerWaitingList, waitingListFormHtml } from './waitingList.ts';
import { registerOffers } from './offer.ts';
import {
  admissionEndedMessage,
  beforeSaleMessage,
  QUEUE_MESSAGES,
  queuePagePath,
  waitingMessage,
} from '../../../contract/waitingRoom.ts';
import { inActiveLanguage, queueCatalogue, sourceText } from '../../../i18n/catalogues.ts';
import { t } from '../../../i18n/runtime.ts';
import { endLanguageScope, requestLocale } from '../../http/locale.ts';
import { CATALOGUE_ID, type Locale } from '../../../i18n/locales.ts';

export { ADMISSION_USED_MESSAGE, QUEUE_FIRST_MESSAGE } from './gates.ts';
/** Refusals of a place in the queue, in English; a buyer is answered in their language (`inActiveLanguage`). */
export const NO_PLACE_MESSAGE = 'A place in the queue needs the browser check to be solved first.';
export const NO_QUEUE_MESSAGE = 'This event date has no queue.';
/** The page's words in the source's English, as the tests read them; a page writes them in its own language. */
export const JOIN_AGAIN_LABEL = sourceText('page.queue.joinAgain');
export const TURN_MAIL_LABEL = sourceText('page.queue.turnMailLabel');
export const TURN_MAIL_SENT_MESSAGE = sourceText('page.queue.turnMailSent');
/** Refusals of 'E-mail me when it is my turn', in English; the page shows them in its language (`inActiveLanguage`). */
export const TURN_MAIL_INVALID_MESSAGE = 'Give a valid e-mail address to be told when it is your turn.';
export const TURN_MAIL_NOT_WAITING_MESSAGE =
  'Only a buyer still waiting in the queue can ask to be e-mailed when it is their turn.';
const notifyForm = z.object({ email: z.string().check(z.trim(), z.minLength(3), z.maxLength(254), z.email()) });
const PLACE_SECONDS = 2 * 86400;
const POLL_ROUTE = '/ajax/queue/:dateId/status/';
const POLL_CACHE_CONTROL = 'private, no-store';
const JSON_TYPE = 'application/json; charset=utf-8';
/** A poll as it comes over HTTP: the route above, spelt as the router takes it (a trailing slash or not, a query or not). */
const POLL_PATH = /^\/ajax\/queue\/([1-9]\d{0,8})\/status\/?(?:\?|$)/;

/**
 * Answers a request before Fastify sees it, when it can: true when it has. The server calls it for
 * every request (server/app.ts); a request it leaves goes to Fastify as usual. The poll's is the
 * one such path (see `pollFastPath` below and docs/scale.md).
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface WaitingRoomOptions {
  deps: AppDeps;
  /** The process's view of the queues, shared with the doors (./gates.ts) and the organiser's console. */
  rooms: WaitingRooms;
  staticDir: string;
  /** The API's security headers (plugins/security.ts), which the poll's fast path sets itself. */
  apiHeaders: readonly (readonly [string, string])[];
  /** Receives the poll's fast path once the routes are in, for the HTTP server to put in front of Fastify. */
  fastPath(answer: FastPath): void;
}

const idParam = (raw: string): number | null => (/^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null);

/**
 * The waiting room's routes, registered like the other route plugins. The doors behind the queue
 * (adding, holding seats, reserving, the event page) are the app-wide plugin ./gates.ts.
 */
export const waitingRoom: FastifyPluginAsync<WaitingRoomOptions> = async (app, opts) => {
  const { deps, rooms } = opts;
  const { db, config, clock } = deps;
  // A place and an admission belong to the session they were given to (./cookies.ts).
  const { sign, nowSeconds, placeOf, admissionOf, setPlace, setAdmission } = queueCookies(config, clock);
  onSessionReplaced(app, (request, reply, from, to) => {
    if (from === null) return;
    const now = nowSeconds();
    for (const [name, value] of Object.entries(request.cookies)) {
      const found = QUEUE_COOKIE.exec(name);
      if (!found) continue;
      const dateId = Number(found[2]);
      if (found[1] === 'queue') {
        const place = sign.readPlace(value, dateId, from, now);
        if (place) setPlace(request, reply, place, to);
      } else {
        const admission = sign.readAdmission(value, dateId, from, now);
        if (admission) setAdmission(request, reply, admission, to);
      }
    }
  });

  /**
   * The answer's words, as contract/waitingRoom.ts has them: written out rather than serialised, with
   * what every buyer of a date is told alike (where to go, the title, the ticket types) made once per
   * read of the queue, so a poll builds only its own few numbers.
   */
  const dateTails = new WeakMap<QueuedDate, string>();
  function tailOf(date: QueuedDate): string {
    let tail = dateTails.get(date);
    if (tail === undefined) {
      const shared = {
        event_url: `/event/${date.eventId}/`,
        event_title: date.title,
        ticket_types: date.types.map((t) => ({ id: t.id, name: t.name })),
        organiser_message: date.message,
      };
      tail = JSON.stringify(shared).slice(1);
      dateTails.set(date, tail);
    }
    return tail;
  }
  const orNull = (n: number | null) => (n === null ? 'null' : String(n));
  function wire(date: QueuedDate, view: QueueView | { state: 'no-place' }): string {
    const waiting = view.state === 'waiting' ? view : null;
    const progress = waiting ? waiting.progress : view.state === 'admitted' || view.state === 'ended' ? 1 : 0;
    return (
      `{"state":"${view.state}","position":${orNull(waiting && waiting.position)},"ahead":${orNull(waiting && waiting.ahead)},` +
      `"wait_seconds":${orNull(waiting && waiting.waitSeconds)},"progress":${progress},` +
      `"opens_in_seconds":${orNull(view.state === 'before-sale' ? view.opensInSeconds : null)},"poll_ms":${view.state === 'no-place' ? 1000 : view.pollMs},${tailOf(date)}`
    );
  }

  /** The buyer's place and what it is told now; an early place learns its number from the draw once. */
  async function placeView(
    request: FastifyRequest,
    reply: FastifyReply,
    date: QueuedDate,
    given?: Place,
  ): Promise<QueueView | { state: 'no-place' }> {
    const dateId = date.row.eventDateId;
    let place: Place | null = given ?? placeOf(request, dateId);
    if (!place) return { state: 'no-place' };
    if (place.number === 0 && date.row.drawn) {
      const number = await numberOf(db, place.placeId, dateId);
      if (number > 0) {
        place = { ...place, number, startedAt: 0 };
        setPlace(request, reply, place);
      }
    }
    return viewOf(request, reply, date, place);
  }

  /**
   * What a place is told now; a place let in is given its admission. The admission ends
   * `admission_seconds` after it was first handed out (recorded once per place, in the database, and
   * in the place's cookie): within that time a lost admission cookie is given again, after it never.
   */
  async function viewOf(
    request: FastifyRequest,
    reply: FastifyReply,
    date: QueuedDate,
    place: Place,
  ): Promise<QueueView | { state: 'no-place' }> {
    const view = rooms.view(date, place);
    if (view.state !== 'admitted' || admissionOf(request, place.dateId)) return view;
    let until = place.admittedUntil;
    if (until === 0) {
      const first = await admitOnce(db, place.placeId, place.dateId, clock());
      if (!first) return { state: 'no-place' };
      until = Math.floor(first.getTime() / 1000) + date.row.admissionSeconds;
      place = { ...place, admittedUntil: until };
      setPlace(request, reply, place);
    }
    if (until <= nowSeconds()) return rooms.view(date, place);
    setAdmission(request, reply, { dateId: place.dateId, placeId: place.placeId, expiresAt: until });
    return view;
  }

  async function statusOf(
    request: FastifyRequest,
    reply: FastifyReply,
    date: QueuedDate,
    given?: Place,
  ): Promise<string> {
    const view = await placeView(request, reply, date, given);
    reply.type(JSON_TYPE);
    return wire(date, view);
  }

  async function queuedDate(raw: string): Promise<QueuedDate> {
    const id = idParam(raw);
    const date = id ? await rooms.date(id) : null;
    if (!date) throw new Refusal('not-found', NO_QUEUE_MESSAGE);
    return date;
  }

  // The queue page. A buyer with a place sees it painted at once (position, wait, progress: what a
  // poll would answer, as cheap: no database), kept by no one else. Without one, the page is the same
  // for every buyer of the date in one language and a CDN may keep it; its script then asks for the place. Either is
  // right for anyone, so a cached copy served to a buyer with a place only costs them one poll.
  const scripts = builtScripts(opts.staticDir, 'queue.html');
  app.get<{ Params: { dateId: string } }>('/queue/:dateId/', async (request, reply) => {
    const date = await queuedDate(request.params.dateId);
    const view = await placeView(request, reply, date);
    // Let in (its admission cookie is set): straight on to the tickets.
    if (view.state === 'admitted')
      return reply.header('cache-control', 'private, no-store').redirect(`/event/${date.eventId}/`, 303);
    // Spent: the time to buy has ended, and is not given again; the buyer may join again at the back.
    if (view.state === 'ended') {
      reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store');
      return page(config, t('page.queue.title', { title: date.title }), endedPage(date), 'events');
    }
    // A queue of one place per account asks an anonymous browser to sign in first.
    if (view.state === 'no-place' && date.signInToQueue && userIdOf(request) === null) {
      reply.type('text/html; charset=utf-8').header('cache-control', 'private, no-store');
      return page(config, t('page.queue.title', { title: date.title }), signInPage(date), 'events');
    }
    reply
      .type('text/html; charset=utf-8')
      .header('cache-control', view.state === 'no-place' ? 'public, max-age=60' : 'private, no-store');
    // The page is written in the request's language (server/http/locale.ts): a kept copy is one language's.
    if (view.state === 'no-place') reply.header('vary', 'accept-language, cookie');
    const told = view.state !== 'no-place' && (request.query as { notify?: unknown }).notify === 'sent';
    return page(
      config,
      t('page.queue.title', { title: date.title }),
      queuePage(
        date,
        view.state === 'no-place' ? null : { view, status: wire(date, view) },
        scripts,
        config.maxPerOrder,
        told,
      ),
      'events',
    );
  });

  /**
   * A poll's answer from the process's current read of the queue and the buyer's signed place, with
   * nothing to wait on or set: nearly every poll. Null when it needs more (a read of the queue is due,
   * the date has no queue, an early place's number from the draw, an admission to hand out), which
   * the route then answers as the queue page's first read does.
   */
  function answerNow(
    id: number,
    binding: string | null,
    placeToken: string | undefined,
    admissionToken: string | undefined,
  ): string | null {
    const date = rooms.dateNow(id);
    if (!date) return null;
    const now = nowSeconds();
    const place = sign.readPlace(placeToken, id, binding, now);
    if (!place) return wire(date, { state: 'no-place' });
    if (place.number === 0 && date.row.drawn) return null;
    const view = rooms.view(date, place);
    if (view.state === 'admitted' && !sign.readAdmission(admissionToken, id, binding, now)) return null;
    return wire(date, view);
  }

  // What the server pushes to an open queue page with a place (./push.ts): 'sold out' and 'your turn'
  // within a second of the queue's read finding them. A page without a place is answered 204 (which
  // ends its EventSource), as is one past the process's listeners: both poll as before.
  const push = new QueuePush(db, rooms, (date) =>
    wire(date, { state: 'sold-out', pollMs: date.row.pollSeconds * 1000 * 2 }),
  );
  app.addHook('preClose', async () => push.close());
  const streamHeaders = [
    ...opts.apiHeaders,
    ['cache-control', 'no-store'],
    ['content-type', 'text/event-stream; charset=utf-8'],
    ['x-accel-buffering', 'no'],
  ].flat();
  app.get<{ Params: { dateId: string } }>('/ajax/queue/:dateId/events/', async (request, reply) => {
    const date = await queuedDate(request.params.dateId);
    const place = placeOf(request, date.row.eventDateId);
    if (!place || rooms.view(date, place).state === 'ended')
      return reply.status(204).header('cache-control', 'no-store').send();
    reply.hijack();
    endLanguageScope(reply);
    if (!push.listen(date, place, reply.raw, streamHeaders))
      reply.raw.writeHead(204, [...opts.apiHeaders.flat(), 'cache-control', 'no-store']).end();
  });

  // The poll every queued buyer repeats: at once when it can be (`answerNow`), otherwise as the
  // queue page's first read. Over HTTP most polls are answered before this route (`pollFastPath`).
  app.get<{ Params: { dateId: string } }>(POLL_ROUTE, (request, reply) => {
    reply.header('cache-control', POLL_CACHE_CONTROL);
    const id = idParam(request.params.dateId);
    const now =
      id === null
        ? null
        : answerNow(
            id,
            sessionBindingOf(request),
            request.cookies[placeCookie(id)],
            request.cookies[admissionCookie(id)],
          );
    if (now !== null) {
      reply.type(JSON_TYPE);
      return now;
    }
    return queuedDate(request.params.dateId).then((found) => statusOf(request, reply, found));
  });

  app.post<{ Params: { dateId: string }; Body: { altcha?: unknown } }>(
    '/ajax/queue/:dateId/join/',
    async (request, reply) => {
      const date = await queuedDate(request.params.dateId);
      const dateId = date.row.eventDateId;
      reply.header('cache-control', 'no-store');
      // One place per browser: a browser with a place keeps it, until its time to buy has ended.
      const held = placeOf(request, dateId);
      if (held && rooms.view(date, held).state !== 'ended') return statusOf(request, reply, date);
      // One place per account, when the organiser asks for it: an account's place follows it to another browser.
      const userId = userIdOf(request);
      if (date.signInToQueue) {
        if (userId === null)
          return reply
            .status(403)
            .send({ error: inActiveLanguage(SIGN_IN_TO_QUEUE_MESSAGE), sign_in_url: signInPath(dateId) });
        const own = await placeOfAccount(db, dateId, userId);
        const until = own?.admittedAt ? Math.floor(own.admittedAt.getTime() / 1000) + date.row.admissionSeconds : 0;
        if (own && (until === 0 || until > nowSeconds())) {
          const place: Place = {
            dateId,
            placeId: own.placeId,
            number: own.number,
            startedAt: 0,
            admittedUntil: until,
            expiresAt: nowSeconds() + PLACE_SECONDS,
          };
          setPlace(request, reply, place);
          return statusOf(request, reply, date, place);
        }
      }
      const body = (request.body ?? {}) as { altcha?: unknown };
      const token = typeof body.altcha === 'string' && body.altcha.length <= 20_000 ? body.altcha : '';
      if (!token || !(await deps.captcha.verify(token, request.ip)))
        return reply.status(403).send({ error: inActiveLanguage(NO_PLACE_MESSAGE) });
      const placed = await joinAs(db, dateId, clock(), { ip: request.ip, userId: date.signInToQueue ? userId : null });
      if (!placed) return reply.status(429).send({ error: placesPerAddressMessage(date.placesPerAddress) });
      // The join may have come just before this process saw the draw: read the queue again first.
      await rooms.refresh();
      const fresh = (await rooms.date(dateId)) ?? date;
      const place: Place = {
        dateId,
        placeId: placed.placeId,
        number: placed.number,
        startedAt: placed.startedAt,
        admittedUntil: 0,
        expiresAt: nowSeconds() + PLACE_SECONDS,
      };
      setPlace(request, reply, place);
      return statusOf(request, reply, fresh, place);
    },
  );

  // Joining again once the time to buy has ended: the spent place and its admission go, and the
  // queue page (its script solving the browser check again) gives a new place at the back.
  app.post<{ Params: { dateId: string } }>('/queue/:dateId/again/', async (request, reply) => {
    const date = await queuedDate(request.params.dateId);
    const dateId = date.row.eventDateId;
    const held = placeOf(request, dateId);
    if (held && rooms.view(date, held).state === 'ended') {
      reply.clearCookie(placeCookie(dateId), { path: '/' });
      reply.clearCookie(admissionCookie(dateId), { path: '/' });
    }
    return reply.header('cache-control', 'no-store').redirect(queuePagePath(dateId), 303);
  });

  // Leaving: a buyer let in who is done (or has changed their mind) ends their turn now, and their
  // place among the shoppers goes to the next in line at the next step. The place is spent.
  app.post<{ Params: { dateId: string } }>('/queue/:dateId/leave/', async (request, reply) => {
    const date = await queuedDate(request.params.dateId);
    const dateId = date.row.eventDateId;
    const admission = admissionOf(request, dateId);
    if (admission) await endTurn(db, admission.placeId, dateId, clock(), date.row.admissionSeconds);
    reply.clearCookie(placeCookie(dateId), { path: '/' });
    reply.clearCookie(admissionCookie(dateId), { path: '/' });
    return reply.header('cache-control', 'no-store').redirect(`/event/${date.eventId}/?left=1`, 303);
  });

  // 'E-mail me when it is my turn': a waiting buyer leaves an address for the job that sends it (turnMail.ts).
  app.post<{ Params: { dateId: string } }>('/queue/:dateId/notify/', async (request, reply) => {
    const date = await queuedDate(request.params.dateId);
    const dateId = date.row.eventDateId;
    const back = html`<p><a class="inline-link" href="${queuePagePath(dateId)}">${t('page.queue.backToPlace')}</a></p>`;
    const show = (status: number, text: string) =>
      reply
        .status(status)
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(
          page(
            config,
            t('page.queue.title', { title: date.title }),
            html`<h1>${date.title}</h1><p class="notice error" role="alert">${inActiveLanguage(text)}</p>${back}`,
            'events',
          ),
        );
    const parsed = notifyForm.safeParse(request.body ?? {});
    if (!parsed.success) return show(400, TURN_MAIL_INVALID_MESSAGE);
    const place = placeOf(request, dateId);
    if (!place || !(await askForTurnMail(db, dateId, place.placeId, parsed.data.email)))
      return show(409, TURN_MAIL_NOT_WAITING_MESSAGE);
    return reply.header('cache-control', 'no-store').redirect(`${queuePagePath(dateId)}?notify=sent`, 303);
  });

  registerWaitingList(app, deps, rooms);
  registerOffers(app, deps);

  if (config.demo) {
    /** Demo mode: opens a queued date's on-sale now, as its organiser would by setting the time. */
    app.post<{ Params: { dateId: string } }>('/dev/waiting-room/:dateId/open/', async (request) => {
      const date = await queuedDate(request.params.dateId);
      await openOnSaleNow(db, date.row.eventDateId, clock());
      await rooms.refresh();
      return { opened: true };
    });
  }
  /**
   * Most polls, answered before Fastify: the same answer and headers as the route's (the API's
   * security headers, no caching, JSON), without the router, the hooks and the reply each request
   * would otherwise cost. Whatever it cannot answer now, it leaves to Fastify: another method or
   * path, a poll `answerNow` leaves to the route, and a request over HTTPS that the site's address
   * does not say is HTTPS (the security hook adds HSTS to it).
   *
   * The one exception to "every request goes through Fastify" (server/app.ts puts it in front): the
   * poll is what every queued buyer repeats every few seconds, and through Fastify it costs several
   * times a /health request; answered here it costs no more than one (bench/waitingRoom.ts measures
   * the ratio, which bench:check keeps at or under 1). Its body is written by hand (`wire` above) for
   * the same reason; docs/scale.md says so too.
   */
  const pollHeaders: string[] = [
    ...opts.apiHeaders,
    ['cache-control', POLL_CACHE_CONTROL],
    ['content-type', JSON_TYPE],
  ].flat();
  const httpsSite = opts.apiHeaders.some(([name]) => name === 'strict-transport-security');
  /**
   * Whether Fastify would take the request as HTTPS (and so read the `__Host-` session cookie): the
   * socket's, or a trusted proxy's `X-Forwarded-Proto`. Null when only Fastify can tell (proxies
   * trusted by address): the route answers then.
   */
  const trust = config.trustProxy;
  function httpsOf(req: IncomingMessage): boolean | null {
    const forwarded = req.headers['x-forwarded-proto'];
    if (forwarded !== undefined && trust !== false) {
      if (typeof trust !== 'number') return null;
      if (trust > 0) return [forwarded].flat().join(',').split(',').at(-1)!.trim() === 'https';
    }
    return (req.socket as { encrypted?: boolean }).encrypted === true;
  }
  const pollFastPath: FastPath = (req, res) => {
    if (req.method !== 'GET' || !req.url) return false;
    const found = POLL_PATH.exec(req.url);
    if (!found) return false;
    if (
      !httpsSite &&
      ((req.socket as { encrypted?: boolean }).encrypted || req.headers['x-forwarded-proto'] !== undefined)
    )
      return false;
    const id = Number(found[1]);
    const https = httpsOf(req);
    if (https === null) return false;
    const cookies = req.headers.cookie ? app.parseCookie(req.headers.cookie) : {};
    const sessionId = sessionIdOfHeader(cookies, https);
    const body = answerNow(
      id,
      sessionId ? bindingOf(sessionId) : null,
      cookies[placeCookie(id)],
      cookies[admissionCookie(id)],
    );
    if (body === null) return false;
    res.writeHead(200, [...pollHeaders, 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
    return true;
  };

  opts.fastPath(pollFastPath);
};

/** What the page says first: the words the page's script says for the same status (contract/queuePage.ts). */
function firstWords(view: QueueView): { message: string; progress: number } {
  switch (view.state) {
    case 'before-sale':
      return { message: beforeSaleMessage(view.opensInSeconds), progress: 0 };
    case 'waiting':
      return { message: waitingMessage(view.position, view.waitSeconds), progress: view.progress };
    case 'admitted':
      return { message: QUEUE_MESSAGES.admitted, progress: 1 };
    case 'sold-out':
      return { message: QUEUE_MESSAGES.soldOut, progress: 0 };
    case 'ended':
      return { message: admissionEndedMessage(null), progress: 1 };
  }
}

/** The page's script's words (`queue.*`) in the page's language, as the checkout's page carries its own (i18n/runtime.ts reads them). */
const queueMessagesHtml = new Map<Locale, Html>();
function queueMessages(locale: Locale): Html {
  let found = queueMessagesHtml.get(locale);
  if (!found) {
    const json = JSON.stringify(queueCatalogue(locale)).replace(/</g, '\\u003c');
    found = new Html(`<script type="application/json" id="${CATALOGUE_ID}">${json}</script>`);
    queueMessagesHtml.set(locale, found);
  }
  return found;
}

const signInPath = (dateId: number) => `/signin/?next=${encodeURIComponent(queuePagePath(dateId))}`;

function signInPage(date: QueuedDate): Html {
  return html`<section class="queue" aria-labelledby="queue-title">
    <h1 id="queue-title">${date.title}</h1>
    <p class="notice" role="status">${inActiveLanguage(SIGN_IN_TO_QUEUE_MESSAGE)}</p>
    <p><a class="button" href="${signInPath(date.row.eventDateId)}">${t('page.queue.signIn')}</a></p>
  </section>`;
}

function endedPage(date: QueuedDate): Html {
  return html`<section class="queue" aria-labelledby="queue-title">
    <h1 id="queue-title">${date.title}</h1>
    <p class="notice" role="status">${admissionEndedMessage(Math.round(date.row.admissionSeconds / 60))}</p>
    <form method="post" action="/queue/${date.row.eventDateId}/again/"><button class="button" type="submit">${t('page.queue.joinAgain')}</button></form>
  </section>`;
}

function queuePage(
  date: QueuedDate,
  known: { view: QueueView; status: string } | null,
  scripts: Html,
  maxQty: number,
  turnMailAsked: boolean,
): Html {
  const first = known ? firstWords(known.view) : { message: QUEUE_MESSAGES.checking, progress: 0 };
  const soldOut = known?.view.state === 'sold-out';
  const mayAsk = !known || known.view.state === 'waiting' || known.view.state === 'before-sale';
  return html`<section class="queue" data-queue="${date.row.eventDateId}" data-status="${known?.status}" aria-labelledby="queue-title">
    <h1 id="queue-title">${date.title}</h1>
    <p class="notice" data-organiser-message ${date.message ? '' : new Html('hidden')}><strong>${t('page.queue.organiserLabel')}</strong> <span>${date.message ?? ''}</span></p>
    <p class="queue__message" data-queue-message role="status" aria-live="polite">${first.message}</p>
    <progress class="queue__progress" data-queue-progress max="100" value="${Math.round(first.progress * 100)}" aria-label="${t('page.queue.progress')}"></progress>
    <p data-queue-retry hidden><button class="button" type="button">${t('page.queue.tryAgain')}</button></p>
    ${turnMailAsked ? html`<p class="notice" role="status">${t('page.queue.turnMailSent')}</p>` : ''}
    <form method="post" action="/queue/${date.row.eventDateId}/notify/" data-queue-notify ${turnMailAsked ? new Html('data-asked hidden') : mayAsk ? '' : new Html('hidden')}>
      <p><label for="queue-notify-email">${t('page.queue.turnMailLabel')}</label> <input id="queue-notify-email" name="email" type="email" autocomplete="email" maxlength="254" required></p>
      <button class="button button--secondary" type="submit">${t('page.queue.turnMailButton')}</button>
    </form>
    <div data-queue-list ${soldOut ? '' : new Html('hidden')}><h2>${t('page.queue.waitingList')}</h2><p>${t('page.waitingList.intro')}</p>
    ${waitingListFormHtml(date.types, maxQty)}<p data-queue-list-message role="status"></p></div>
    <noscript><p>${t('page.queue.noScript')}</p></noscript>
  </section>${queueMessages(requestLocale())}${scripts}`;
}
