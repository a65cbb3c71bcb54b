/**
 * A place in the queue and an admission are signed tokens (HMAC-SHA256 under a key of the server's),
 * kept in cookies: a poll checks its place without reading or writing the database, and any process
 * that shares the key can check it. A token found good is remembered (it cannot change, and only the
 * key makes one), so a buyer's polls after the first cost a map look-up rather than an HMAC.
 *
 * place:     q1.<date>.<place id>.<number, 0 until drawn>.<admitted through when it was numbered>.<sig>
 * admission: a1.<date>.<place id>.<expires, epoch seconds>.<sig>
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface Place {
  dateId: number;
  placeId: number;
  /** 0 for an early arrival not yet numbered by the draw. */
  number: number;
  /** Where admission stood when this place got its number, for the progress shown. */
  startedAt: number;
}

export interface Admission {
  dateId: number;
  placeId: number;
  expiresAt: number;
}

export interface Signer {
  place(place: Place): string;
  readPlace(token: string | undefined, dateId: number): Place | null;
  admission(admission: Admission): string;
  readAdmission(token: string | undefined, dateId: number, nowSeconds: number): Admission | null;
}

const DIGITS = /^\d{1,15}$/;
/** Good tokens remembered per process: about one per queued buyer polling it, a few MB at most. */
export const REMEMBERED_TOKENS = 200_000;

export function signer(secret: string): Signer {
  const key = createHmac('sha256', secret).update('holdfast waiting room').digest();
  const sign = (body: string) => createHmac('sha256', key).update(body).digest('base64url');
  const good = { q1: new Map<string, number[]>(), a1: new Map<string, number[]>() };
  const check = (token: string | undefined, kind: keyof typeof good, parts: number): number[] | null => {
    if (!token || token.length > 200) return null;
    const remembered = good[kind];
    const known = remembered.get(token);
    if (known) return known;
    const fields = token.split('.');
    if (fields.length !== parts + 2 || fields[0] !== kind) return null;
    const sig = fields.pop()!;
    const expected = Buffer.from(sign(fields.join('.')));
    const given = Buffer.from(sig);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    if (!fields.slice(1).every((f) => DIGITS.test(f))) return null;
    const values = fields.slice(1).map(Number);
    // The oldest remembered goes first once the map is full (a Map keeps insertion order).
    if (remembered.size >= REMEMBERED_TOKENS) remembered.delete(remembered.keys().next().value!);
    remembered.set(token, values);
    return values;
  };
  return {
    place: (p) => {
      const body = `q1.${p.dateId}.${p.placeId}.${p.number}.${p.startedAt}`;
      return `${body}.${sign(body)}`;
    },
    readPlace(token, dateId) {
      const f = check(token, 'q1', 4);
      if (!f || f[0] !== dateId) return null;
      return { dateId, placeId: f[1]!, number: f[2]!, startedAt: f[3]! };
    },
    admission: (a) => {
      const body = `a1.${a.dateId}.${a.placeId}.${a.expiresAt}`;
      return `${body}.${sign(body)}`;
    },
    readAdmission(token, dateId, nowSeconds) {
      const f = check(token, 'a1', 3);
      if (!f || f[0] !== dateId || f[2]! <= nowSeconds) return null;
      return { dateId, placeId: f[1]!, expiresAt: f[2]! };
    },
  };
}

export const placeCookie = (dateId: number) => `hf_queue_${dateId}`;
export const admissionCookie = (dateId: number) => `hf_admit_${dateId}`;
