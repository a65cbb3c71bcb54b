/**
 * The visitor's session and the tokens bound to it (docs/security.md lists every one).
 *
 * The session is an opaque random id (32 bytes) in `hf_session`, `__Host-hf_session` over HTTPS;
 * it carries nothing but its randomness. A visitor is anonymous until a one-time code (or a link
 * that came to their inbox) proves who they are: then the id is replaced by a new one whose hash is
 * a row of `sessions` naming the user, with an idle and an absolute end. Signing in, signing out
 * and any change of who the session is all replace the id; signing out everywhere deletes every row
 * of the user, so their other browsers are anonymous at their next request.
 *
 * Every other cookie is a token signed with a key of its own (derived from SESSION_SECRET), over
 * its purpose (the cookie's name), its subject (the value), its end and the session it was given
 * to: a value copied into another cookie's slot, into another browser or past its end is refused.
 * When the session id is replaced, the tokens the browser holds are signed again for the new id.
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import '@fastify/cookie';
import type { SessionStore } from '../db/sessions.ts';

export const SESSION_COOKIE = 'hf_session';
/** The session cookie's name over HTTPS: a `__Host-` cookie cannot be set by a sibling domain or over HTTP. */
export const SECURE_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;
export const SALE_COOKIE = 'hf_sale';
export const SEAT_HOLD_COOKIE = 'hf_seats';
export const REFERRER_COOKIE = 'hf_ref';

const DAY = 24 * 3600;
/** An anonymous session's cookie, and the tokens bound to it, last this long from their last setting. */
export const ANONYMOUS_SECONDS = 30 * DAY;
/** A signed-in session ends this long after sign-in, however active. */
export const SESSION_ABSOLUTE_SECONDS = 30 * DAY;
/** A signed-in session unused for this long ends. */
export const SESSION_IDLE_SECONDS = 7 * DAY;
/** How stale a signed-in session's last use may be before it is written again. */
const SEEN_EVERY_SECONDS = 3600;
/** A sale's cookie lasts as long as an anonymous session. */
const SALE_SECONDS = ANONYMOUS_SECONDS;
const REFERRAL_SECONDS = 30 * DAY;

/** A signed-in session id starts with `s`, an anonymous one with `a`: an anonymous request reads no row. */
const SESSION_ID = /^[as][A-Za-z0-9_-]{43}$/;

export type { SessionStore };

interface SessionState {
  /** The session id, or null for a visitor without one. */
  id: string | null;
  userId: number | null;
  /** Set when the request's session ended (revoked or run out): its cookie is cleared. */
  ended: boolean;
}

const STATE = Symbol('session');
type WithSession = FastifyRequest & { [STATE]?: SessionState };

export interface SessionSettings {
  secret: string;
  store: SessionStore;
  clock: () => Date;
}
const SETTINGS = Symbol('sessionSettings');
type WithSettings = FastifyInstance & { [SETTINGS]?: Settings };

type Rebinder = (request: FastifyRequest, reply: FastifyReply, from: string | null, to: string) => void;
interface Settings extends SessionSettings {
  key: Buffer;
  rebinders: Rebinder[];
  /** Tokens found good, by purpose, binding and value: a visitor's calls carry the same few. */
  verified: Map<string, { value: string; expires: number }>;
}

/** Good tokens remembered per process: about one per visitor, a few MB at most. */
export const REMEMBERED_TOKENS = 50_000;

export const hashOf = (id: string): string => createHash('sha256').update(id).digest('base64url');
/** Bindings remembered per process: about one per browser polling a queue, a few MB at most. */
const REMEMBERED_BINDINGS = 100_000;
const bindings = new Map<string, string>();
/**
 * What a token is bound to: derived from the session id, which it never shows. A queue's polls ask
 * for the same session's binding every few seconds, so it is remembered rather than hashed again.
 */
export function bindingOf(id: string): string {
  const known = bindings.get(id);
  if (known !== undefined) return known;
  const binding = createHash('sha256').update(`binding\n${id}`).digest('base64url').slice(0, 22);
  // The oldest remembered goes first once the map is full (a Map keeps insertion order).
  if (bindings.size >= REMEMBERED_BINDINGS) bindings.delete(bindings.keys().next().value!);
  bindings.set(id, binding);
  return binding;
}

function settingsOf(request: FastifyRequest): Settings {
  const found = (request.server as WithSettings)[SETTINGS];
  if (!found) throw new Error('The session plugin is not registered');
  return found;
}

const isHttps = (request: FastifyRequest) => request.protocol === 'https';
const sessionCookieName = (https: boolean) => (https ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

/** The session id a cookie header names, for the given scheme; what the poll's fast path reads before Fastify. */
export function sessionIdOfHeader(cookies: Record<string, string | undefined>, https: boolean): string | null {
  const id = cookies[sessionCookieName(https)];
  return id && SESSION_ID.test(id) ? id : null;
}

/** Reads the request's session once, before any route: a signed-in one from its row, checked for its ends. */
export async function resolveSession(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const settings = settingsOf(request);
  const id = sessionIdOfHeader(request.cookies, isHttps(request));
  const state: SessionState = { id, userId: null, ended: false };
  (request as WithSession)[STATE] = state;
  if (!id || id[0] !== 's') return;
  const now = settings.clock();
  const idHash = hashOf(id);
  const row = await settings.store.find(idHash);
  const idleEnd = row ? row.lastSeenAt.getTime() + SESSION_IDLE_SECONDS * 1000 : 0;
  if (!row || row.expiresAt <= now || idleEnd <= now.getTime()) {
    if (row) await settings.store.remove(idHash);
    // Signed out here: the browser starts again, anonymous, and what was bound to the old id is not carried over.
    state.id = null;
    state.ended = true;
    // A __Host- cookie is cleared only by a Set-Cookie that is Secure too.
    reply.clearCookie(sessionCookieName(isHttps(request)), {
      path: '/',
      secure: isHttps(request),
      httpOnly: true,
      sameSite: 'lax',
    });
    return;
  }
  state.userId = row.userId;
  if (now.getTime() - row.lastSeenAt.getTime() > SEEN_EVERY_SECONDS * 1000) await settings.store.seen(idHash, now);
}

function stateOf(request: FastifyRequest): SessionState {
  const state = (request as WithSession)[STATE];
  if (state) return state;
  // A request the hook has not seen (none in the app): read its cookie as anonymous.
  const id = sessionIdOfHeader(request.cookies, isHttps(request));
  const fresh = { id: id && id[0] === 'a' ? id : null, userId: null, ended: false };
  (request as WithSession)[STATE] = fresh;
  return fresh;
}

function setSessionCookie(request: FastifyRequest, reply: FastifyReply, id: string, maxAge: number): void {
  reply.setCookie(sessionCookieName(isHttps(request)), id, {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    path: '/',
    maxAge,
  });
}

const newId = (kind: 'a' | 's') => `${kind}${randomBytes(32).toString('base64url')}`;

/** The request's session id, made (anonymous) when there is none yet. */
function ensureSession(request: FastifyRequest, reply: FastifyReply): string {
  const state = stateOf(request);
  if (state.id) return state.id;
  state.id = newId('a');
  setSessionCookie(request, reply, state.id, ANONYMOUS_SECONDS);
  return state.id;
}

/** The binding of the request's session, or null without one: what a token bound to it must match. */
export function sessionBindingOf(request: FastifyRequest): string | null {
  const { id } = stateOf(request);
  return id ? bindingOf(id) : null;
}

/** The binding of the request's session, making an anonymous session first when it has none. */
export function ensureSessionBinding(request: FastifyRequest, reply: FastifyReply): string {
  return bindingOf(ensureSession(request, reply));
}

/** Called when a session id is replaced, so a token bound to the old one is signed again for the new. */
export function onSessionReplaced(app: FastifyInstance, rebind: Rebinder): void {
  const settings = (app as WithSettings)[SETTINGS];
  if (!settings) throw new Error('The session plugin is not registered');
  settings.rebinders.push(rebind);
}

// ---------------------------------------------------------------------------------------------
// Signed tokens: `<value>.<end, base 36 epoch seconds>.<signature>`.

export function tokenKey(secret: string): Buffer {
  return createHmac('sha256', secret).update('holdfast cookie tokens').digest();
}

function signature(key: Buffer, purpose: string, binding: string, value: string, expires: number): string {
  return createHmac('sha256', key).update(`${purpose}\n${binding}\n${value}\n${expires}`).digest('base64url');
}

/** A token of `purpose` for `value`, bound to `binding`, good until `expires` (epoch seconds). */
export function signToken(key: Buffer, purpose: string, binding: string, value: string, expires: number): string {
  return `${value}.${expires.toString(36)}.${signature(key, purpose, binding, value, expires)}`;
}

/** The value of a token when it was made for this purpose and binding and has not ended; otherwise null. */
export function readToken(
  key: Buffer,
  purpose: string,
  binding: string,
  token: string | undefined,
  nowSeconds: number,
): { value: string; expires: number } | null {
  if (!token || token.length > 400) return null;
  const sigAt = token.lastIndexOf('.');
  const endAt = token.lastIndexOf('.', sigAt - 1);
  if (endAt < 1) return null;
  const value = token.slice(0, endAt);
  const end = token.slice(endAt + 1, sigAt);
  if (!/^[0-9a-z]{1,8}$/.test(end)) return null;
  const expires = parseInt(end, 36);
  if (expires <= nowSeconds) return null;
  const expected = Buffer.from(signature(key, purpose, binding, value, expires));
  const given = Buffer.from(token.slice(sigAt + 1));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { value, expires };
}

const nowSecondsOf = (request: FastifyRequest) => Math.floor(settingsOf(request).clock().getTime() / 1000);

function readBound(request: FastifyRequest, purpose: string): string | null {
  const raw = request.cookies[purpose];
  const binding = sessionBindingOf(request);
  if (!raw || !binding) return null;
  const settings = settingsOf(request);
  const now = nowSecondsOf(request);
  const memo = `${purpose}\n${binding}\n${raw}`;
  const known = settings.verified.get(memo);
  if (known) return known.expires > now ? known.value : null;
  const read = readToken(settings.key, purpose, binding, raw, now);
  if (!read) return null;
  settings.verified.set(memo, read);
  // The first remembered goes first once there are too many.
  if (settings.verified.size > REMEMBERED_TOKENS) settings.verified.delete(settings.verified.keys().next().value!);
  return read.value;
}

/** Sets a token cookie of `purpose` (its name) for `value`, bound to the request's session (made if need be). */
export function setBound(
  request: FastifyRequest,
  reply: FastifyReply,
  purpose: string,
  value: string,
  seconds: number,
  binding = ensureSessionBinding(request, reply),
): void {
  const settings = settingsOf(request);
  const expires = nowSecondsOf(request) + seconds;
  reply.setCookie(purpose, signToken(settings.key, purpose, binding, value, expires), {
    httpOnly: true,
    sameSite: 'lax',
    secure: isHttps(request),
    path: '/',
    maxAge: seconds,
  });
}

/** The remaining life of a bound token cookie the request carries, in seconds, or null. */
function remainingOf(
  request: FastifyRequest,
  purpose: string,
  binding: string,
): { value: string; seconds: number } | null {
  const settings = settingsOf(request);
  const now = nowSecondsOf(request);
  const read = readToken(settings.key, purpose, binding, request.cookies[purpose], now);
  return read ? { value: read.value, seconds: read.expires - now } : null;
}

// ---------------------------------------------------------------------------------------------
// Who the session is.

export function userIdOf(request: FastifyRequest): number | null {
  return stateOf(request).userId;
}

/** Replaces the session id with a new one (of `kind`), signing the tokens bound to the old one again. */
function replaceSession(request: FastifyRequest, reply: FastifyReply, kind: 'a' | 's'): string {
  const settings = settingsOf(request);
  const state = stateOf(request);
  const oldBinding = state.id ? bindingOf(state.id) : null;
  const id = newId(kind);
  const binding = bindingOf(id);
  if (oldBinding) {
    for (const purpose of [SALE_COOKIE, SEAT_HOLD_COOKIE, REFERRER_COOKIE]) {
      const held = remainingOf(request, purpose, oldBinding);
      if (held) setBound(request, reply, purpose, held.value, held.seconds, binding);
    }
  }
  for (const rebind of settings.rebinders) rebind(request, reply, oldBinding, binding);
  state.id = id;
  return id;
}

/** Signs the browser in as `userId`: a new session id, with a row naming the user; the old id ends. */
export async function signIn(request: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const settings = settingsOf(request);
  const state = stateOf(request);
  if (state.id?.[0] === 's') await settings.store.remove(hashOf(state.id));
  const id = replaceSession(request, reply, 's');
  const now = settings.clock();
  await settings.store.create({
    idHash: hashOf(id),
    userId,
    createdAt: now,
    lastSeenAt: now,
    expiresAt: new Date(now.getTime() + SESSION_ABSOLUTE_SECONDS * 1000),
  });
  state.userId = userId;
  setSessionCookie(request, reply, id, SESSION_ABSOLUTE_SECONDS);
}

/** Signs this browser out: its session row goes, and it carries on under a new anonymous id. */
export async function signOut(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const settings = settingsOf(request);
  const state = stateOf(request);
  if (!state.id) return;
  if (state.id[0] === 's') await settings.store.remove(hashOf(state.id));
  const id = replaceSession(request, reply, 'a');
  state.userId = null;
  setSessionCookie(request, reply, id, ANONYMOUS_SECONDS);
}

/** Signs the user out of every browser, this one included; returns how many sessions ended. */
export async function signOutEverywhere(request: FastifyRequest, reply: FastifyReply): Promise<number> {
  const userId = userIdOf(request);
  if (userId === null) return 0;
  const ended = await settingsOf(request).store.removeAllOf(userId);
  await signOut(request, reply);
  return ended;
}

// ---------------------------------------------------------------------------------------------
// The tokens of the checkout.

export function saleIdOf(request: FastifyRequest): string | null {
  const id = readBound(request, SALE_COOKIE);
  return id && /^[0-9a-f-]{36}$/.test(id) ? id : null;
}

export function setSaleCookie(request: FastifyRequest, reply: FastifyReply, saleId: string): void {
  if (saleIdOf(request) !== saleId) setBound(request, reply, SALE_COOKIE, saleId, SALE_SECONDS);
}

/** The visitor's seat hold token, kept across pages so the seat page's hold session continues. */
export function holdTokenOf(request: FastifyRequest): string | null {
  const token = readBound(request, SEAT_HOLD_COOKIE);
  return token && /^[0-9a-f]{32}$/.test(token) ? token : null;
}

/** Set again with every hold, so it ends as the buyer's last seat hold does. */
export function setHoldTokenCookie(request: FastifyRequest, reply: FastifyReply, token: string, seconds: number): void {
  setBound(request, reply, SEAT_HOLD_COOKIE, token, seconds);
}

/** The referrer whose share link this visitor opened (a user id), kept for REFERRAL_SECONDS. */
export function referrerIdOf(request: FastifyRequest): number | null {
  const id = Number(readBound(request, REFERRER_COOKIE));
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

export function setReferrerCookie(request: FastifyRequest, reply: FastifyReply, referrerId: number): void {
  if (referrerIdOf(request) !== referrerId)
    setBound(request, reply, REFERRER_COOKIE, String(referrerId), REFERRAL_SECONDS);
}

/** Installs the session's reading on every request (server/plugins/session.ts calls it). */
export function installSession(app: FastifyInstance, settings: SessionSettings): void {
  (app as WithSettings)[SETTINGS] = { ...settings, key: tokenKey(settings.secret), rebinders: [], verified: new Map() };
  app.addHook('onRequest', resolveSession);
}
