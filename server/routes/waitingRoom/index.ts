/**
 * The waiting room's routes: the queue page, a buyer's place (polled; answered from a signed cookie
 * and the process's once-a-second view of the queue, never a database write), joining (once per
 * browser, with the proof of work), the waiting list, and the admission the event page and the
 * reservation ask for on a queued event date.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { eq, sql } from 'drizzle-orm';
import { z } from 'zod/mini';
import { rows } from '../../db/index.ts';
import { eventDateQueues } from '../../db/schema.ts';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf, setSaleCookie } from '../../http/session.ts';
import { Refusal } from '../../domain/refusal.ts';
import { Html, html, page } from '../../views/html.ts';
import { builtScripts } from '../../views/builtScripts.ts';
import { join, numberOf, WaitingRooms, type QueuedDate, type QueueView } from '../../domain/waitingRoom/room.ts';
import { admissionCookie, placeCookie, signer, type Place } from '../../domain/waitingRoom/tokens.ts';
import { joinWaitingList, OFFER_ENDED_MESSAGE, OFFER_UNKNOWN_MESSAGE, openOffer } from '../../domain/waitingRoom/waitingList.ts';
import {
  ADMITTED_MESSAGE,
  beforeSaleMessage,
  CHECKING_MESSAGE,
  queuePagePath,
  SOLD_OUT_MESSAGE,
  WAITING_LIST_PATH,
  waitingMessage,
} from '../../../contract/waitingRoom.ts';
import { calls } from '../../../contract/index.ts';

/** Said to a reservation of a queued date that did not come through the queue. */
export const QUEUE_FIRST_MESSAGE = 'These tickets are sold through a queue. Join it from the event page, and reserve once it is your turn.';
export const NO_PLACE_MESSAGE = 'A place in the queue needs the browser check to be solved first.';
export const WAITING_LIST_INVALID_MESSAGE = 'Give a valid e-mail address and how many tickets you want.';
const PLACE_SECONDS = 2 * 86400;
const POLL_ROUTE = '/ajax/queue/:dateId/status/';
const POLL_CACHE_CONTROL = 'private, no-store';
const JSON_TYPE = 'application/json; charset=utf-8';
/** A poll as it comes over HTTP: the route above, spelt as the router takes it (a trailing slash or not, a query or not). */
const POLL_PATH = /^\/ajax\/queue\/([1-9]\d{0,8})\/status\/?(?:\?|$)/;

/**
 * Answers a request before Fastify sees it, when it can: true when it has. The server calls it for
 * every request (server/app.ts); a request it leaves goes to Fastify as usual.
 */
export type FastPath = (req: IncomingMessage, res: ServerResponse) => boolean;

const idParam = (raw: string): number | null => (/^[1-9]\d{0,8}$/.test(raw) ? Number(raw) : null);

const waitingListForm = z.object({
  ticket_type_id: z.string().check(z.regex(/^[1-9]\d{0,8}$/)),
  email: z.string().check(z.maxLength(254), z.email()),
  quantity: z.optional(z.string().check(z.regex(/^[1-9]\d?$/))),
});

export async function registerWaitingRoom(app: FastifyInstance, deps: AppDeps, opts: { staticDir: string; apiHeaders: readonly (readonly [string, string])[] }): Promise<{ rooms: WaitingRooms; pollFastPath: FastPath }> {
  const { db, config, clock } = deps;
  const rooms = new WaitingRooms(db, clock);
  const sign = signer(config.sessionSecret);
  const nowSeconds = () => Math.floor(clock().getTime() / 1000);

  function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAge: number) {
    reply.setCookie(name, value, { httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', path: '/', maxAge });
  }

  /**
   * The answer's words, as contract/waitingRoom.ts has them: written out rather than serialised, with
   * what every buyer of a date is told alike (where to go, the title, the ticket types) made once per
   * read of the queue, so a poll builds only its own few numbers.
   */
  const dateTails = new WeakMap<QueuedDate, string>();
  function tailOf(date: QueuedDate): string {
    let tail = dateTails.get(date);
    if (tail === undefined) {
      const shared = { event_url: `/event/${date.eventId}/`, event_title: date.title, ticket_types: date.types.map((t) => ({ id: t.id, name: t.name })) };
      tail = JSON.stringify(shared).slice(1);
      dateTails.set(date, tail);
    }
    return tail;
  }
  const orNull = (n: number | null) => (n === null ? 'null' : String(n));
  function wire(date: QueuedDate, view: QueueView | { state: 'no-place' }): string {
    const waiting = view.state === 'waiting' ? view : null;
    const progress = waiting ? waiting.progress : view.state === 'admitted' ? 1 : 0;
    return (
      `{"state":"${view.state}","position":${orNull(waiting && waiting.position)},"ahead":${orNull(waiting && waiting.ahead)},` +
      `"wait_seconds":${orNull(waiting && waiting.waitSeconds)},"progress":${progress},` +
      `"opens_in_seconds":${orNull(view.state === 'before-sale' ? view.opensInSeconds : null)},"poll_ms":${view.state === 'no-place' ? 1000 : view.pollMs},${tailOf(date)}`
    );
  }

  /** The buyer's place and what it is told now; an early place learns its number from the draw once. */
  async function placeView(request: FastifyRequest, reply: FastifyReply, date: QueuedDate, given?: Place): Promise<QueueView | { state: 'no-place' }> {
    const dateId = date.row.eventDateId;
    let place: Place | null = given ?? sign.readPlace(request.cookies[placeCookie(dateId)], dateId);
    if (!place) return { state: 'no-place' };
    if (place.number === 0 && date.row.drawn) {
      const number = await numberOf(db, place.placeId, dateId);
      if (number > 0) {
        place = { ...place, number, startedAt: 0 };
        setCookie(request, reply, placeCookie(dateId), sign.place(place), PLACE_SECONDS);
      }
    }
    return viewOf(request, reply, date, place);
  }

  /** What a place is told now; a place just let in is given its admission. */
  function viewOf(request: FastifyRequest, reply: FastifyReply, date: QueuedDate, place: Place): QueueView {
    const dateId = date.row.eventDateId;
    const view = rooms.view(date, place);
    if (view.state === 'admitted' && !sign.readAdmission(request.cookies[admissionCookie(dateId)], dateId, nowSeconds())) {
      const expiresAt = nowSeconds() + date.row.admissionSeconds;
      setCookie(request, reply, admissionCookie(dateId), sign.admission({ dateId, placeId: place.placeId, expiresAt }), date.row.admissionSeconds);
    }
    return view;
  }

  async function statusOf(request: FastifyRequest, reply: FastifyReply, date: QueuedDate, given?: Place): Promise<string> {
    const view = await placeView(request, reply, date, given);
    reply.type(JSON_TYPE);
    return wire(date, view);
  }

  async function queuedDate(raw: string): Promise<QueuedDate> {
    const id = idParam(raw);
    const date = id ? await rooms.date(id) : null;
    if (!date) throw new Refusal('not-found', 'This event date has no queue.');
    return date;
  }

  // The gates: a queued date's event page and reservation want an admission. Attached to those two
  // routes as they are registered, so no other route pays for them.
  const reservePath = calls.reserveTickets.path;
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    if (route.url === reservePath && methods.includes('POST')) route.preHandler = [...[route.preHandler ?? []].flat(), reserveGate];
    if (route.url === '/event/:id/' && methods.includes('GET')) route.preHandler = [...[route.preHandler ?? []].flat(), eventGate];
  });

  async function reserveGate(request: FastifyRequest, reply: FastifyReply) {
    const dates = await rooms.current();
    if (dates.size === 0) return;
    const saleId = saleIdOf(request);
    if (!saleId) return;
    const found = await rows<{ event_date_id: number; held: boolean }>(
      db,
      sql`SELECT DISTINCT t.event_date_id, COALESCE(s.hold_deadline > ${clock().toISOString()}::timestamptz, false) AS held
          FROM sale_lines l JOIN ticket_types t ON t.id = l.ticket_type_id JOIN sales s ON s.id = l.sale_id
          WHERE l.sale_id = ${saleId} AND t.event_date_id IN (${sql.join([...dates.keys()].map((id) => sql`${id}`), sql`, `)})`,
    );
    const now = nowSeconds();
    // A sale already held (a waiting list offer, a reservation made while admitted) carries on.
    const refused = found.some((r) => !r.held && !sign.readAdmission(request.cookies[admissionCookie(Number(r.event_date_id))], Number(r.event_date_id), now));
    if (refused) return reply.send({ reserved: false, error: QUEUE_FIRST_MESSAGE });
  }

  async function eventGate(request: FastifyRequest, reply: FastifyReply) {
    const id = idParam((request.params as { id?: string }).id ?? '');
    if (!id) return;
    const queued = await rooms.datesOfEvent(id);
    const now = nowSeconds();
    const waiting = queued.find((dateId) => !sign.readAdmission(request.cookies[admissionCookie(dateId)], dateId, now));
    if (waiting !== undefined) return reply.redirect(queuePagePath(waiting), 303);
  }

  // The queue page. A buyer with a place sees it painted at once (position, wait, progress: what a
  // poll would answer, as cheap: no database), kept by no one else. Without one, the page is the same
  // for every buyer of the date and a CDN may keep it; its script then asks for the place. Either is
  // right for anyone, so a cached copy served to a buyer with a place only costs them one poll.
  const scripts = builtScripts(opts.staticDir, 'queue.html');
  app.get<{ Params: { dateId: string } }>('/queue/:dateId/', async (request, reply) => {
    const date = await queuedDate(request.params.dateId);
    const view = await placeView(request, reply, date);
    // Let in (its admission cookie is set): straight on to the tickets.
    if (view.state === 'admitted') return reply.header('cache-control', 'private, no-store').redirect(`/event/${date.eventId}/`, 303);
    reply.type('text/html; charset=utf-8').header('cache-control', view.state === 'no-place' ? 'public, max-age=60' : 'private, no-store');
    return page(config, `Queue: ${date.title}`, queuePage(date, view.state === 'no-place' ? null : { view, status: wire(date, view) }, scripts, config.maxPerOrder), 'events');
  });

  /**
   * A poll's answer from the process's current read of the queue and the buyer's signed place, with
   * nothing to wait on or set: nearly every poll. Null when it needs more (a read of the queue is due,
   * the date has no queue, an early place's number from the draw, an admission to hand out), which
   * the route then answers as the queue page's first read does.
   */
  function answerNow(id: number, placeToken: string | undefined, admissionToken: string | undefined): string | null {
    const date = rooms.dateNow(id);
    if (!date) return null;
    const place = sign.readPlace(placeToken, id);
    if (!place) return wire(date, { state: 'no-place' });
    if (place.number === 0 && date.row.drawn) return null;
    const view = rooms.view(date, place);
    if (view.state === 'admitted' && !sign.readAdmission(admissionToken, id, nowSeconds())) return null;
    return wire(date, view);
  }

  // The poll every queued buyer repeats: at once when it can be (`answerNow`), otherwise as the
  // queue page's first read. Over HTTP most polls are answered before this route (`pollFastPath`).
  app.get<{ Params: { dateId: string } }>(POLL_ROUTE, (request, reply) => {
    reply.header('cache-control', POLL_CACHE_CONTROL);
    const id = idParam(request.params.dateId);
    const now = id === null ? null : answerNow(id, request.cookies[placeCookie(id)], request.cookies[admissionCookie(id)]);
    if (now !== null) {
      reply.type(JSON_TYPE);
      return now;
    }
    return queuedDate(request.params.dateId).then((found) => statusOf(request, reply, found));
  });

  app.post<{ Params: { dateId: string }; Body: { altcha?: unknown } }>('/ajax/queue/:dateId/join/', async (request, reply) => {
    const date = await queuedDate(request.params.dateId);
    const dateId = date.row.eventDateId;
    reply.header('cache-control', 'no-store');
    // One place per browser: a browser with a place keeps it.
    if (sign.readPlace(request.cookies[placeCookie(dateId)], dateId)) return statusOf(request, reply, date);
    const body = (request.body ?? {}) as { altcha?: unknown };
    const token = typeof body.altcha === 'string' && body.altcha.length <= 20_000 ? body.altcha : '';
    if (!token || !(await deps.captcha.verify(token, request.ip))) return reply.status(403).send({ error: NO_PLACE_MESSAGE });
    const placed = await join(db, dateId, clock());
    // The join may have come just before this process saw the draw: read the queue again first.
    await rooms.refresh();
    const fresh = (await rooms.date(dateId)) ?? date;
    const place: Place = { dateId, placeId: placed.placeId, number: placed.number, startedAt: placed.startedAt };
    setCookie(request, reply, placeCookie(dateId), sign.place(place), PLACE_SECONDS);
    return statusOf(request, reply, fresh, place);
  });

  // The waiting list: JSON for the queue page's script, a page for the event page's plain form.
  app.post(WAITING_LIST_PATH, async (request, reply) => {
    const parsed = waitingListForm.safeParse(request.body);
    const browser = (request.headers.accept ?? '').includes('text/html');
    if (!parsed.success) {
      if (!browser) return reply.status(400).send({ error: WAITING_LIST_INVALID_MESSAGE });
      reply.status(400).type('text/html; charset=utf-8');
      return page(config, 'Waiting list', html`<h1>Waiting list</h1><p class="notice error" role="alert">${WAITING_LIST_INVALID_MESSAGE}</p>`);
    }
    const qty = Math.min(Number(parsed.data.quantity ?? '1'), config.maxPerOrder);
    const answer = await joinWaitingList(db, { ticketTypeId: Number(parsed.data.ticket_type_id), email: parsed.data.email.trim(), qty }, clock(), config.checkoutTimeSeconds);
    if (!browser) return answer;
    reply.type('text/html; charset=utf-8');
    return page(config, 'Waiting list', html`<h1>Waiting list</h1><p class="notice" role="status">${answer.message}</p><p><a class="inline-link" href="/all-events/">See all events</a></p>`);
  });

  app.get<{ Params: { typeId: string } }>('/waiting-list/:typeId/', async (request, reply) => {
    const id = idParam(request.params.typeId);
    const [type] = id
      ? await rows<{ id: number; name: string; title: string }>(
          db,
          sql`SELECT t.id, t.name, e.title FROM ticket_types t JOIN event_dates d ON d.id = t.event_date_id JOIN events e ON e.id = d.event_id WHERE t.id = ${id}`,
        )
      : [];
    reply.type('text/html; charset=utf-8');
    if (!type) return reply.status(404).send(page(config, 'Not found', html`<h1>These tickets could not be found</h1>`));
    return page(config, 'Waiting list', html`<h1>${type.title}: ${type.name}</h1><p>${WAITING_LIST_INTRO}</p>${waitingListFormHtml([{ id: Number(type.id), name: type.name }], config.maxPerOrder)}`);
  });

  app.get<{ Params: { token: string } }>('/waiting-list/offer/:token/', async (request, reply) => {
    const found = await openOffer(db, request.params.token, clock());
    if (found && 'saleId' in found) {
      setSaleCookie(request, reply, found.saleId);
      return reply.redirect('/checkout/', 303);
    }
    reply.type('text/html; charset=utf-8');
    const message = found ? OFFER_ENDED_MESSAGE : OFFER_UNKNOWN_MESSAGE;
    return reply.status(found ? 410 : 404).send(page(config, 'Waiting list', html`<h1>Waiting list</h1><p class="notice error" role="alert">${message}</p>`));
  });

  if (config.demo) {
    /** Demo mode: opens a queued date's on-sale now, as its organiser would by setting the time. */
    app.post<{ Params: { dateId: string } }>('/dev/waiting-room/:dateId/open/', async (request) => {
      const date = await queuedDate(request.params.dateId);
      await db.update(eventDateQueues).set({ onSaleAt: clock() }).where(eq(eventDateQueues.eventDateId, date.row.eventDateId));
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
   */
  const pollHeaders: string[] = [...opts.apiHeaders, ['cache-control', POLL_CACHE_CONTROL], ['content-type', JSON_TYPE]].flat();
  const httpsSite = opts.apiHeaders.some(([name]) => name === 'strict-transport-security');
  const pollFastPath: FastPath = (req, res) => {
    if (req.method !== 'GET' || !req.url) return false;
    const found = POLL_PATH.exec(req.url);
    if (!found) return false;
    if (!httpsSite && ((req.socket as { encrypted?: boolean }).encrypted || req.headers['x-forwarded-proto'] !== undefined)) return false;
    const id = Number(found[1]);
    const cookies = req.headers.cookie ? app.parseCookie(req.headers.cookie) : {};
    const body = answerNow(id, cookies[placeCookie(id)], cookies[admissionCookie(id)]);
    if (body === null) return false;
    res.writeHead(200, [...pollHeaders, 'content-length', String(Buffer.byteLength(body))]);
    res.end(body);
    return true;
  };

  return { rooms, pollFastPath };
}

export const WAITING_LIST_INTRO = 'Leave your e-mail address: if tickets are released, the next buyer on the list is e-mailed a link that holds them for a while.';


export function waitingListFormHtml(types: { id: number; name: string }[], maxQty: number): Html {
  return html`<form class="waiting-list" method="post" action="${WAITING_LIST_PATH}" data-waiting-list>
    <p><label for="wl-type">Tickets</label> <select id="wl-type" name="ticket_type_id">${types.map((t) => html`<option value="${t.id}">${t.name}</option>`)}</select></p>
    <p><label for="wl-qty">How many</label> <input id="wl-qty" name="quantity" type="number" inputmode="numeric" min="1" max="${maxQty}" value="1"></p>
    <p><label for="wl-email">E-mail address</label> <input id="wl-email" name="email" type="email" autocomplete="email" required></p>
    <button class="button" type="submit">Join the waiting list</button></form>`;
}

/** What the page says first: the words the page's script says for the same status (contract/queuePage.ts). */
function firstWords(view: QueueView): { message: string; progress: number } {
  switch (view.state) {
    case 'before-sale':
      return { message: beforeSaleMessage(view.opensInSeconds), progress: 0 };
    case 'waiting':
      return { message: waitingMessage(view.position, view.waitSeconds), progress: view.progress };
    case 'admitted':
      return { message: ADMITTED_MESSAGE, progress: 1 };
    case 'sold-out':
      return { message: SOLD_OUT_MESSAGE, progress: 0 };
  }
}

function queuePage(date: QueuedDate, known: { view: QueueView; status: string } | null, scripts: Html, maxQty: number): Html {
  const first = known ? firstWords(known.view) : { message: CHECKING_MESSAGE, progress: 0 };
  const soldOut = known?.view.state === 'sold-out';
  return html`<section class="queue" data-queue="${date.row.eventDateId}" data-status="${known?.status}" aria-labelledby="queue-title">
    <h1 id="queue-title">${date.title}</h1>
    <p class="queue__message" data-queue-message role="status" aria-live="polite">${first.message}</p>
    <progress class="queue__progress" data-queue-progress max="100" value="${Math.round(first.progress * 100)}" aria-label="Progress through the queue"></progress>
    <p data-queue-retry hidden><button class="button" type="button">Try again</button></p>
    <div data-queue-list ${soldOut ? '' : new Html('hidden')}><h2>Waiting list</h2><p>${WAITING_LIST_INTRO}</p>
    ${waitingListFormHtml(date.types, maxQty)}<p data-queue-list-message role="status"></p></div>
    <noscript><p>The queue needs JavaScript to keep your place.</p></noscript>
  </section>${scripts}`;
}
