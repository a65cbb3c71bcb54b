/**
 * The doors behind a queue. On a queued event date every route that takes stock wants that date's
 * admission: adding its tickets to a basket, holding its seats, and reserving (where the admission is
 * also spent on the one sale it reserves). The event page shows an event of several dates, so that
 * a buyer chooses one and is queued for that one; an event of a single queued date sends a buyer
 * without its admission straight to its queue. Each gate is attached to its route as the route is
 * registered, so no other route pays for it, and a date without a queue costs a map look-up.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf } from '../../http/session.ts';
import {
  eventDateCount,
  queuedDatesOfSale,
  useAdmissionFor,
  type WaitingRooms,
} from '../../domain/waitingRoom/room.ts';
import { waitingListMailOf } from '../../domain/waitingRoom/start.ts';
import { offerFreedStock } from '../../domain/waitingRoom/waitingList.ts';
import type { Admission } from '../../domain/waitingRoom/tokens.ts';
import { queueCookies } from './cookies.ts';
import { admissionEndedMessage, queuePagePath } from '../../../contract/queuePage.ts';
import { calls } from '../../../contract/index.ts';
import { inActiveLanguage, sourceText } from '../../../i18n/catalogues.ts';
import { t } from '../../../i18n/runtime.ts';

// The doors' refusals in English, as their callers and the tests compare them; each is in the
// catalogue word for word (`page.refusal.*`), and a buyer is answered in their language (`inActiveLanguage`).

/** Said to a buyer taking a queued date's tickets or seats without having come through its queue. */
export const QUEUE_FIRST_MESSAGE =
  'These tickets are sold through a queue. Join it from the event page, and reserve once it is your turn.';
/** Said to a second sale reserving with an admission another sale has used. */
export const ADMISSION_USED_MESSAGE =
  'Your turn in the queue has already been used to reserve another basket. Each turn reserves one basket: to buy more, join the queue again from the event page.';
/** Said to an anonymous browser joining a queue that gives one place per account. */
export const SIGN_IN_TO_QUEUE_MESSAGE =
  'This queue gives one place per person: sign in to your account (or create one with your e-mail address) to join it.';

/** Said to a connection with as many places in a queue as one may have, in the request's language. */
export const placesPerAddressMessage = (cap: number) => t('page.queue.placesPerAddress', { cap });

/** Events are held, and their times given, in the UK. */
const EVENT_TIME_ZONE = 'Europe/London';
const clockTime = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
  timeZone: EVENT_TIME_ZONE,
});

/** What an admitted buyer is told on the event page, in the page's language: when their turn ends, in the event's time zone. */
export const admissionClockMessage = (until: Date) => t('page.queue.turnNotice', { time: clockTime.format(until) });

/** The button on the event page that ends a turn early, for the next buyer, in the source's English (the page writes `leaveLabel`). */
export const LEAVE_TURN_LABEL = sourceText('page.queue.leaveTurn');

const notices = new WeakMap<
  FastifyRequest,
  { message: string; until: number; leavePath: string; leaveLabel: string }
>();
/** The admitted buyer's clock for the event page being served, if the buyer holds a turn for one of its dates. */
export const admissionNoticeOf = (request: FastifyRequest) => notices.get(request) ?? null;

const queuedForReservation = new WeakMap<FastifyRequest, { dates: number[]; refusal: (dateId: number) => string }>();
/**
 * The queued dates a reservation request holds no turn for, and what a buyer whose basket has
 * tickets of one is told: the reservation itself finds whether the basket has any, in its own round
 * trip (reserve_attempt). Null: no date is queued, or the request holds a turn and was checked here.
 */
export const queuedDatesOf = (request: FastifyRequest) => queuedForReservation.get(request) ?? null;

export interface GateOptions {
  deps: Pick<AppDeps, 'db' | 'clock' | 'config' | 'mailer'>;
  rooms: WaitingRooms;
}

const ADD_PATH = calls.addToBasket.path;
const HOLD_SEATS_PATH = calls.holdSeats.path;
const RESERVE_PATH = calls.reserveTickets.path;

function wantsHtml(request: FastifyRequest): boolean {
  const accept = request.headers.accept ?? '';
  return accept.includes('text/html') && !accept.includes('application/json');
}

async function gates(app: FastifyInstance, { deps, rooms }: GateOptions): Promise<void> {
  const { db, clock, config } = deps;
  const { admissionOf, placeOf, nowSeconds } = queueCookies(config, clock);
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const gate =
      route.url === RESERVE_PATH && methods.includes('POST')
        ? reserveGate
        : route.url === ADD_PATH && methods.includes('POST')
          ? addGate
          : route.url === HOLD_SEATS_PATH && methods.includes('POST')
            ? seatGate
            : route.url === '/event/:id/' && methods.includes('GET')
              ? eventGate
              : null;
    if (gate) route.preHandler = [...[route.preHandler ?? []].flat(), gate];
  });

  // Stock freed while buyers wait goes to the lists first, before adding or reserving takes any (and
  // before the doors above): the lists' offers (waitingList.ts), made by the route itself.
  const mail = waitingListMailOf(config, deps.mailer);
  const stockTaking = new Set([calls.addToBasket.path, calls.reserveTickets.path]);
  app.addHook('onRoute', (route) => {
    if (!stockTaking.has(route.url) || ![route.method].flat().includes('POST')) return;
    route.preHandler = [listFirst, ...[route.preHandler ?? []].flat()];
  });
  async function listFirst(request: FastifyRequest) {
    const body = (request.body ?? {}) as { ticket?: unknown };
    const lines =
      body.ticket && typeof body.ticket === 'object'
        ? Object.values(body.ticket as Record<string, { ticket?: unknown }>)
        : [];
    const ticketTypeIds = lines
      .map((l) => Number(l?.ticket))
      .filter((id) => Number.isSafeInteger(id) && id > 0)
      .slice(0, 50);
    if (!(await rooms.waitingListed())) return;
    await offerFreedStock(db, mail, clock(), { saleId: saleIdOf(request), ticketTypeIds });
  }

  // The seat page of a queued date (served by the app's catch-all, so found here by its path) sends
  // a buyer without the date's admission to its queue, as the event page does.
  const SEAT_PAGE = /^\/events\/book_seats\/([1-9]\d{0,8})\/(?:\?|$)/;
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' || !request.url.startsWith('/events/book_seats/')) return;
    const found = SEAT_PAGE.exec(request.url);
    if (!found) return;
    const dateId = Number(found[1]);
    if ((await rooms.date(dateId)) && !admissionOf(request, dateId))
      return reply.header('cache-control', 'no-store').redirect(queuePagePath(dateId), 303);
  });

  /** Why a buyer without the date's admission is refused: never queued, or their turn has ended. */
  function refusalOf(request: FastifyRequest, dateId: number, admissionSeconds: number): string {
    const place = placeOf(request, dateId);
    const ended = place !== null && place.admittedUntil > 0 && place.admittedUntil <= nowSeconds();
    return ended
      ? admissionEndedMessage(Math.round(admissionSeconds / 60) || null)
      : inActiveLanguage(QUEUE_FIRST_MESSAGE);
  }

  /** Sends a buyer without the date's admission to its queue: a page goes there, a script is told in words and where. */
  async function toQueue(request: FastifyRequest, reply: FastifyReply, dateId: number) {
    if (wantsHtml(request)) return reply.header('cache-control', 'no-store').redirect(queuePagePath(dateId), 303);
    const date = await rooms.date(dateId);
    return reply
      .status(403)
      .send({ error: refusalOf(request, dateId, date?.row.admissionSeconds ?? 0), redirect: queuePagePath(dateId) });
  }

  /** The order form's lines: each queued date whose tickets it adds wants its admission. */
  async function addGate(request: FastifyRequest, reply: FastifyReply) {
    const dates = await rooms.current();
    if (dates.size === 0) return;
    const lines = (request.body as { ticket?: unknown } | undefined)?.ticket;
    if (!lines || typeof lines !== 'object') return;
    const dateOfType = new Map<number, number>();
    for (const [dateId, date] of dates) for (const type of date.types) dateOfType.set(type.id, dateId);
    for (const line of Object.values(lines as Record<string, unknown>)) {
      const { ticket, qty } = (line ?? {}) as { ticket?: unknown; qty?: unknown };
      if (Number(qty) === 0) continue;
      const dateId = dateOfType.get(Number(ticket));
      if (dateId !== undefined && !admissionOf(request, dateId)) return toQueue(request, reply, dateId);
    }
  }

  async function seatGate(request: FastifyRequest, reply: FastifyReply) {
    const dateId = Number((request.body as { event_date_id?: unknown } | undefined)?.event_date_id);
    if (!Number.isSafeInteger(dateId) || dateId <= 0) return;
    const date = rooms.dateNow(dateId) === undefined ? await rooms.date(dateId) : rooms.dateNow(dateId);
    if (date && !admissionOf(request, dateId)) return toQueue(request, reply, dateId);
  }

  async function reserveGate(request: FastifyRequest, reply: FastifyReply) {
    const dates = await rooms.current();
    if (dates.size === 0) return;
    const saleId = saleIdOf(request);
    if (!saleId) return;
    const queued = [...dates.keys()];
    // A request holding no turn for any queued date: the reservation finds, in its own round trip,
    // whether the basket has tickets of one (and refuses it then).
    if (queued.every((dateId) => !admissionOf(request, dateId))) {
      queuedForReservation.set(request, {
        dates: queued,
        refusal: (dateId) => refusalOf(request, dateId, dates.get(dateId)?.row.admissionSeconds ?? 0),
      });
      return;
    }
    const found = await queuedDatesOfSale(db, saleId, queued, clock());
    // A sale already held (a waiting list offer, a reservation made while admitted) carries on.
    for (const dateId of found.filter((r) => !r.held).map((r) => Number(r.event_date_id))) {
      const admission = admissionOf(request, dateId);
      if (!admission)
        return reply.send({
          reserved: false,
          error: refusalOf(request, dateId, dates.get(dateId)?.row.admissionSeconds ?? 0),
        });
      // An admission reserves one sale, however many copies of it there are.
      if (!(await useAdmissionFor(db, admission.placeId, dateId, saleId)))
        return reply.send({ reserved: false, error: inActiveLanguage(ADMISSION_USED_MESSAGE) });
    }
  }

  /**
   * An event whose one date is queued sends a buyer without its admission to the queue. An event of
   * several dates is shown: the buyer chooses a date, and its tickets (the add's gate) send them to
   * that date's queue. A buyer holding a turn is told when it ends.
   */
  async function eventGate(request: FastifyRequest, reply: FastifyReply) {
    const raw = (request.params as { id?: string }).id ?? '';
    if (!/^[1-9]\d{0,8}$/.test(raw)) return;
    const queued = await rooms.datesOfEvent(Number(raw));
    if (queued.length === 0) return;
    const admissions = queued.map((dateId) => admissionOf(request, dateId)).filter((a) => a !== null);
    if (admissions.length === 0 && queued.length === 1) {
      if ((await eventDateCount(db, Number(raw))) <= 1) return reply.redirect(queuePagePath(queued[0]!), 303);
    }
    const first = admissions.reduce<Admission | null>(
      (a, b) => (a === null || b.expiresAt < a.expiresAt ? b : a),
      null,
    );
    // Its words are written when the page reads them, in the language the page settles on (its organiser's, perhaps).
    if (first) {
      notices.set(request, {
        get message() {
          return admissionClockMessage(new Date(first.expiresAt * 1000));
        },
        until: first.expiresAt,
        leavePath: `/queue/${first.dateId}/leave/`,
        get leaveLabel() {
          return t('page.queue.leaveTurn');
        },
      });
    }
  }
}

/**
 * The doors, on the whole app (not encapsulated): they attach to the basket's, the seats', the
 * reservation's and the event page's routes registered after them, wherever those are registered.
 */
export const queueGates = fp(gates, { name: 'queue-gates', fastify: '5.x', dependencies: ['session'] });
