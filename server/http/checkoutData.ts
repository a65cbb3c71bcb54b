/**
 * The visitor's checkout and user as the calls answer them (GET checkout, GET user), read with the
 * session's sale and user; the checkout page sends both with its first screen.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Checkout } from '../../contract/index.ts';
import { emptyCheckout } from '../../contract/emptyCheckout.ts';
import { buildCheckout } from '../domain/checkout.ts';
import { versionReader } from '../domain/checkoutVersions.ts';
import { findUser, toWireUser } from '../domain/users.ts';
import type { AppDeps } from './deps.ts';
import { saleIdOf, userIdOf } from './session.ts';

export async function readUser(deps: AppDeps, request: FastifyRequest) {
  const user = await findUser(deps.db, userIdOf(request));
  return { user: user ? toWireUser(user) : null };
}

export function readCheckout(deps: AppDeps, request: FastifyRequest) {
  return buildCheckout(deps.db, saleIdOf(request), deps.clock(), {
    captchaSitekey: deps.config.captcha === 'never' ? null : deps.captcha.sitekey,
    userId: userIdOf(request),
    maxPerOrder: deps.config.maxPerOrder,
  });
}

/** What the checkout page's first screen needs, sent with the page: the replies of GET checkout and GET user. */
export async function checkoutPageData(deps: AppDeps, request: FastifyRequest) {
  const [checkout, user] = await Promise.all([readCheckout(deps, request), readUser(deps, request)]);
  return { checkout, user };
}

/** GET checkout's reply as sent: the body's JSON and its ETag (a hash of that JSON). */
export interface CheckoutReply {
  json: string;
  etag: string;
}

interface Built {
  reply: CheckoutReply;
  /** What the body was built from in the database (checkout_version), and for which signed-in user. */
  version: string;
  userId: number | null;
  /** The clock's span (ms) in which building the body again from the same rows would give the same body. */
  from: number;
  until: number;
}

const replyOf = (json: string): CheckoutReply => ({ json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` });

/**
 * GET checkout, built once per version of what it shows, in this process's memory. On PostgreSQL
 * each read asks the database one cheap question first (`checkout_version`,
 * server/db/functions/checkout_version.sql; the reads that arrive together ask together, see
 * versionReader in server/domain/checkoutVersions.ts); on the embedded database, which no other
 * process can write to, only when a write has ended since it last asked (server/db/writeWatch.ts).
 * The question is the row versions of the sale's own rows, of the catalogue rows its lines show
 * and of the signed-in user, which every committed write changes, whichever process or database
 * function made it and without any write doing anything for it. While they are what the kept body was built
 * from, the body is sent again as it was; otherwise it is built anew. So a change is seen by the
 * very next read, through any process.
 *
 * Time moves the checkout on too: a running hold's countdown reads differently each second and its
 * end sends the sale back to the basket, so a body is kept only until its countdown would change; a
 * payment in progress (its own countdown) is built on each read; and any body is kept at most
 * `keepMs`, which bounds how late the rest shows (what the version leaves out: the questions,
 * plans, charities and payment settings of the basket's events and organisers, their other
 * upcoming events, what `now` decides beyond the countdown).
 *
 * The ETag is a hash of the body: a browser that sends it back (If-None-Match) while it still
 * matches is answered 304 with no body.
 */
export function checkoutReads(deps: AppDeps, { keepMs = 5_000, entries = 5_000 }: { keepMs?: number; entries?: number } = {}) {
  const built = new Map<string, Built>();
  const sitekey = deps.config.captcha === 'never' ? null : deps.captcha.sitekey;
  const empty = replyOf(JSON.stringify(emptyCheckout(sitekey)));

  const versionOf = versionReader(deps.db, entries);

  return async function read(request: FastifyRequest): Promise<CheckoutReply> {
    const saleId = saleIdOf(request);
    if (!saleId) return empty;
    const userId = userIdOf(request);
    // Read before the body is built: a write landing in between leaves a body newer than its version, built again next time.
    const current = await versionOf(saleId, userId);
    if (!current) {
      built.delete(saleId);
      return empty;
    }
    const now = deps.clock();
    const at = now.getTime();
    const kept = built.get(saleId);
    if (kept && kept.version === current.version && kept.userId === userId && at >= kept.from && at < kept.until) return kept.reply;
    const checkout: Checkout = await buildCheckout(deps.db, saleId, now, { captchaSitekey: sitekey, userId, maxPerOrder: deps.config.maxPerOrder });
    const reply = replyOf(JSON.stringify(checkout));
    let until = at + keepMs;
    if (checkout.payment_in_progress) until = at;
    // seconds_remaining = ceil((deadline - now) / 1000) reads one less from deadline - 1000 × (seconds - 1).
    else if (checkout.seconds_remaining > 0) until = current.deadlineMs === null ? at : Math.min(until, current.deadlineMs - 1000 * (checkout.seconds_remaining - 1));
    built.delete(saleId);
    if (until > at) {
      built.set(saleId, { reply, version: current.version, userId, from: at, until });
      // The oldest kept goes first once there are `entries`.
      if (built.size > entries) built.delete(built.keys().next().value!);
    }
    return reply;
  };
}

/** Whether the request's If-None-Match names this ETag (weak or strong, in a list, or `*`). */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t === etag || t === `W/${etag}`;
  });
}

/**
 * Sends GET checkout: 304 without a body when the browser's copy is current, else the JSON. The
 * browser keeps the reply but asks again each time (`private, no-cache`), sending the ETag itself.
 */
export function sendCheckout(request: FastifyRequest, reply: FastifyReply, checkout: CheckoutReply): FastifyReply {
  reply.header('cache-control', 'private, no-cache').header('etag', checkout.etag);
  if (matchesEtag(request, checkout.etag)) return reply.code(304).send();
  return reply.type('application/json; charset=utf-8').send(checkout.json);
}
