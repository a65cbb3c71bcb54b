/**
 * A place in the queue and an admission are signed tokens (HMAC-SHA256 under a key of the server's),
 * kept in cookies: a poll checks its place without reading or writing the database, and any process
 * that shares the key can check it. Each is signed over its purpose (`q2` or `a2`), its subject (the
 * place, and the session it was given to: the session's binding, which the token never shows) and
 * its end, so a copy in another browser, in another cookie's slot or past its end is refused. A
 * token found good is remembered by its binding and text (it cannot change, and only the key makes
 * one), so a buyer's polls after the first cost a map look-up rather than an HMAC.
 *
 * place:     q2.<date>.<place id>.<number, 0 until drawn>.<admitted through when it was numbered>.<admitted until, 0 before>.<end>.<sig>
 * admission: a2.<date>.<place id>.<end: the place's first admission plus the queue's admission time>.<sig>
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Place {
  dateId: number;
  placeId: number;
  /** 0 for an early arrival not yet numbered by the draw. */
  number: number;
  /** Where admission stood when this place got its number, for the progress shown. */
  startedAt: number;
  /** When the place's admission ends (epoch seconds), once it has been handed out; 0 before. */
  admittedUntil: number;
  /** When the place itself ends (epoch seconds). */
  expiresAt: number;
}

export interface Admission {
  dateId: number;
  placeId: number;
  expiresAt: number;
}

export interface Signer {
  place(place: Place, binding: string): string;
  readPlace(token: string | undefined, dateId: number, binding: string | null, nowSeconds: number): Place | null;
  admission(admission: Admission, binding: string): string;
  readAdmission(
    token: string | undefined,
    dateId: number,
    binding: string | null,
    nowSeconds: number,
  ): Admission | null;
}

const DIGITS = /^\d{1,15}$/;
/** Good tokens remembered per process: about one per queued buyer polling it, a few MB at most. */
export const REMEMBERED_TOKENS = 200_000;

export function signer(secret: string): Signer {
  const key = createHmac('sha256', secret).update('holdfast waiting room').digest();
  const sign = (body: string, binding: string) =>
    createHmac('sha256', key).update(`${body}\n${binding}`).digest('base64url');
  const good = { q2: new Map<string, number[]>(), a2: new Map<string, number[]>() };
  const check = (
    token: string | undefined,
    kind: keyof typeof good,
    parts: number,
    binding: string | null,
  ): number[] | null => {
    if (!token || !binding || token.length > 200) return null;
    const remembered = good[kind];
    const memo = `${binding}\n${token}`;
    const known = remembered.get(memo);
    if (known) return known;
    const fields = token.split('.');
    if (fields.length !== parts + 2 || fields[0] !== kind) return null;
    const sig = fields.pop()!;
    const expected = Buffer.from(sign(fields.join('.'), binding));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (!fields.slice(1).every((f) => DIGITS.test(f))) return null;
    const values = fields.slice(1).map(Number);
    // The oldest remembered goes first once the map is full (a Map keeps insertion order).
    if (remembered.size >= REMEMBERED_TOKENS) remembered.delete(remembered.keys().next().value!);
    remembered.set(memo, values);
    return values;
  };
  return {
    place: (p, binding) => {
      const body = `q2.${p.dateId}.${p.placeId}.${p.number}.${p.startedAt}.${p.admittedUntil}.${p.expiresAt}`;
      return `${body}.${sign(body, binding)}`;
    },
    readPlace(token, dateId, binding, nowSeconds) {
      const f = check(token, 'q2', 6, binding);
      if (!f || f[0] !== dateId || f[5]! <= nowSeconds) return null;
      return { dateId, placeId: f[1]!, number: f[2]!, startedAt: f[3]!, admittedUntil: f[4]!, expiresAt: f[5]! };
    },
    admission: (a, binding) => {
      const body = `a2.${a.dateId}.${a.placeId}.${a.expiresAt}`;
      return `${body}.${sign(body, binding)}`;
    },
    readAdmission(token, dateId, binding, nowSeconds) {
      const f = check(token, 'a2', 3, binding);
      if (!f || f[0] !== dateId || f[2]! <= nowSeconds) return null;
      return { dateId, placeId: f[1]!, expiresAt: f[2]! };
    },
  };
}

export const placeCookie = (dateId: number) => `hf_queue_${dateId}`;
export const admissionCookie = (dateId: number) => `hf_admit_${dateId}`;
/** A place or admission cookie's name: its kind and date. */
export const QUEUE_COOKIE = /^hf_(queue|admit)_([1-9]\d{0,8})$/;
