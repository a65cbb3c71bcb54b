/**
 * The visitor's sale and signed-in user live in signed, HttpOnly, SameSite=Lax cookies;
 * `Secure` whenever the request arrived over HTTPS.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import '@fastify/cookie';

export const SALE_COOKIE = 'hf_sale';
export const USER_COOKIE = 'hf_user';
const YEAR_SECONDS = 365 * 24 * 3600;

/** Signed cookies this process has verified, per app (each its own secret): about one per visitor, a few MB at most. */
export const REMEMBERED_COOKIES = 50_000;
const verifiedByApp = new WeakMap<object, Map<string, string>>();

/**
 * A signed cookie's value when its signature is good. A signature is verified once per process:
 * the same signed text always verifies the same way under the app's secret, and nearly every call
 * a visitor makes carries the same cookies.
 */
function readSigned(request: FastifyRequest, name: string): string | null {
  const raw = request.cookies[name];
  if (!raw) return null;
  let verified = verifiedByApp.get(request.unsignCookie);
  if (!verified) verifiedByApp.set(request.unsignCookie, (verified = new Map()));
  const known = verified.get(raw);
  if (known !== undefined) return known;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  verified.set(raw, unsigned.value);
  // The first remembered goes first once there are too many.
  if (verified.size > REMEMBERED_COOKIES) verified.delete(verified.keys().next().value!);
  return unsigned.value;
}

function setSigned(request: FastifyRequest, reply: FastifyReply, name: string, value: string): void {
  reply.setCookie(name, value, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: YEAR_SECONDS,
  });
}

export function saleIdOf(request: FastifyRequest): string | null {
  const id = readSigned(request, SALE_COOKIE);
  return id && /^[0-9a-f-]{36}$/.test(id) ? id : null;
}

export function setSaleCookie(request: FastifyRequest, reply: FastifyReply, saleId: string): void {
  if (saleIdOf(request) !== saleId) setSigned(request, reply, SALE_COOKIE, saleId);
}

export const SEAT_HOLD_COOKIE = 'hf_seats';

/** The visitor's seat hold token, kept across pages so the seat page's hold session continues. */
export function holdTokenOf(request: FastifyRequest): string | null {
  const token = readSigned(request, SEAT_HOLD_COOKIE);
  return token && /^[0-9a-f]{32}$/.test(token) ? token : null;
}

export function setHoldTokenCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  if (holdTokenOf(request) !== token) setSigned(request, reply, SEAT_HOLD_COOKIE, token);
}

export function userIdOf(request: FastifyRequest): number | null {
  const id = Number(readSigned(request, USER_COOKIE));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function signIn(request: FastifyRequest, reply: FastifyReply, userId: number): void {
  setSigned(request, reply, USER_COOKIE, String(userId));
}

/** Clears the signed-in user's cookie; a request that carries none gets no cookie header. */
export function signOut(request: FastifyRequest, reply: FastifyReply): void {
  if (request.cookies[USER_COOKIE] !== undefined) reply.clearCookie(USER_COOKIE, { path: '/' });
}

export const REFERRER_COOKIE = 'hf_ref';
const REFERRAL_DAYS = 30;

/** The referrer whose share link this visitor opened (a user id), kept for REFERRAL_DAYS. */
export function referrerIdOf(request: FastifyRequest): number | null {
  const id = Number(readSigned(request, REFERRER_COOKIE));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function setReferrerCookie(request: FastifyRequest, reply: FastifyReply, referrerId: number): void {
  if (referrerIdOf(request) === referrerId) return;
  reply.setCookie(REFERRER_COOKIE, String(referrerId), {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    path: '/',
    maxAge: REFERRAL_DAYS * 24 * 3600,
  });
}
