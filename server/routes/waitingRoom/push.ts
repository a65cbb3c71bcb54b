/**
 * Push, not poll: every open queue page with a place listens on one server-sent event stream, and
 * one broadcaster per process tells them what the once-a-second read of the queue found.
 *
 *  - 'Sold out' goes to every listener of the date as the status itself (the same for all of them),
 *    so the pages show it without asking.
 *  - 'Your turn' goes as a nudge to the listeners whose numbers admission has just passed: their
 *    page asks for its status at once (the poll hands out the admission cookie), a few requests a
 *    second.
 *  - The queue opening again after a sell-out, the draw at the on-sale, and a new message from the
 *    organiser nudge every listener, each asking within a spread of seconds so that the crowd does
 *    not ask in the same instant.
 *
 * A page keeps polling at the server's cadence besides (its position and wait), so a lost stream
 * costs nothing but speed. Each listener costs a socket and a few hundred bytes; past
 * `MAX_LISTENERS` a page is answered 204 and polls alone.
 */
import type { ServerResponse } from 'node:http';
import type { Database } from '../../db/index.ts';
import { numbersOfPlaces, type QueuedDate, type WaitingRooms } from '../../domain/waitingRoom/room.ts';
import type { Place } from '../../domain/waitingRoom/tokens.ts';

/** Listeners one process keeps at once. */
export const MAX_LISTENERS = 200_000;
/** A comment line this often keeps proxies from closing a quiet stream. */
const HEARTBEAT_MS = 25_000;
/** The nudges after a reopening or the draw are spread over this long. */
export const CROWD_SPREAD_MS = 4000;

interface Listener {
  res: ServerResponse;
  placeId: number;
  /** 0 until the draw numbers an early place. */
  number: number;
}

interface DateListeners {
  all: Set<Listener>;
  byNumber: Map<number, Set<Listener>>;
  early: Set<Listener>;
  /** What the listeners were last told about the queue. */
  seen: { through: number; soldOut: boolean; drawn: boolean; message: string | null } | null;
}

export class QueuePush {
  private dates = new Map<number, DateListeners>();
  private count = 0;
  private timer: NodeJS.Timeout | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private ticking = false;

  constructor(
    private readonly db: Database,
    private readonly rooms: WaitingRooms,
    /** The status every listener of a date is sent once it is sold out (the poll's own words). */
    private readonly soldOutStatus: (date: QueuedDate) => string,
  ) {}

  get listeners(): number {
    return this.count;
  }

  /** Takes a listener's stream, or false when this process has as many as it keeps. */
  listen(date: QueuedDate, place: Place, res: ServerResponse, headers: string[]): boolean {
    if (this.count >= MAX_LISTENERS) return false;
    const dateId = date.row.eventDateId;
    let of = this.dates.get(dateId);
    if (!of) {
      // What the first listener is told about the queue now: every change from here on is pushed.
      of = {
        all: new Set(),
        byNumber: new Map(),
        early: new Set(),
        seen: {
          through: date.row.admittedThrough,
          soldOut: date.row.soldOut,
          drawn: date.row.drawn,
          message: date.message,
        },
      };
      this.dates.set(dateId, of);
    }
    const listener: Listener = { res, placeId: place.placeId, number: place.number };
    of.all.add(listener);
    this.file(of, listener);
    this.count++;
    res.writeHead(200, headers);
    // Reconnect after 5 s when the stream drops; then what is already true now.
    res.write('retry: 5000\n\n');
    if (date.row.soldOut && place.number > date.row.admittedThrough)
      res.write(`event: status\ndata: ${this.soldOutStatus(date)}\n\n`);
    res.on('close', () => this.drop(dateId, listener));
    this.start();
    return true;
  }

  private file(of: DateListeners, listener: Listener) {
    if (listener.number === 0) {
      of.early.add(listener);
      return;
    }
    let same = of.byNumber.get(listener.number);
    if (!same) of.byNumber.set(listener.number, (same = new Set()));
    same.add(listener);
  }

  private drop(dateId: number, listener: Listener) {
    const of = this.dates.get(dateId);
    if (!of || !of.all.delete(listener)) return;
    this.count--;
    of.early.delete(listener);
    const same = of.byNumber.get(listener.number);
    same?.delete(listener);
    if (same?.size === 0) of.byNumber.delete(listener.number);
    if (of.all.size === 0) this.dates.delete(dateId);
    if (this.count === 0) this.stop();
  }

  private start() {
    if (this.timer) return;
    this.timer = setInterval(() => void this.tick(), 250);
    this.timer.unref();
    this.heartbeat = setInterval(() => {
      for (const of of this.dates.values()) for (const l of of.all) l.res.write(': \n\n');
    }, HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  private stop() {
    if (this.timer) clearInterval(this.timer);
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.timer = this.heartbeat = null;
  }

  /**
   * Compares each listened date with what its listeners were last told, and tells them what changed.
   * Asked four times a second; the queue itself is read at most once a second (`WaitingRooms`).
   */
  async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = true;
    try {
      for (const [dateId, of] of this.dates) {
        const date = await this.rooms.date(dateId);
        if (!date) continue;
        await this.tell(date, of);
      }
    } finally {
      this.ticking = false;
    }
  }

  private async tell(date: QueuedDate, of: DateListeners): Promise<void> {
    const { row } = date;
    const now = { through: row.admittedThrough, soldOut: row.soldOut, drawn: row.drawn, message: date.message };
    const was = of.seen;
    of.seen = now;
    if (!was) return;
    if (now.drawn && !was.drawn) await this.numberEarly(row.eventDateId, of);
    if (now.through > was.through) {
      for (let n = was.through + 1; n <= now.through; n++)
        for (const l of of.byNumber.get(n) ?? []) l.res.write('event: nudge\ndata: 0\n\n');
    }
    if (now.soldOut && !was.soldOut) {
      const status = `event: status\ndata: ${this.soldOutStatus(date)}\n\n`;
      for (const l of of.all) if (l.number > now.through || l.number === 0) l.res.write(status);
    } else if ((!now.soldOut && was.soldOut) || (now.drawn && !was.drawn) || now.message !== was.message) {
      for (const l of of.all)
        if (l.number > now.through || l.number === 0) l.res.write(`event: nudge\ndata: ${CROWD_SPREAD_MS}\n\n`);
    }
  }

  /** The draw has numbered the early places: their listeners are filed under their numbers. */
  private async numberEarly(dateId: number, of: DateListeners): Promise<void> {
    const early = [...of.early];
    for (let i = 0; i < early.length; i += 10_000) {
      const batch = early.slice(i, i + 10_000);
      const found = await numbersOfPlaces(
        this.db,
        dateId,
        batch.map((l) => l.placeId),
      );
      const numbers = new Map(found.map((r) => [Number(r.id), r.number === null ? 0 : Number(r.number)]));
      for (const l of batch) {
        const number = numbers.get(l.placeId) ?? 0;
        if (number === 0 || !of.all.has(l)) continue;
        of.early.delete(l);
        l.number = number;
        this.file(of, l);
      }
    }
  }

  /** Ends every stream (the server is closing). */
  close(): void {
    this.stop();
    for (const of of this.dates.values()) for (const l of of.all) l.res.end();
    this.dates.clear();
    this.count = 0;
  }
}
