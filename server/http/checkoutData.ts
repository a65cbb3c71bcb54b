/**
 * The visitor's checkout and user as the calls answer them (GET checkout, GET user), read with the
 * session's sale and user; the checkout page sends both with its first screen.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { emptyCheckout } from '../../contract/emptyCheckout.ts';
import { preparedRows } from '../db/index.ts';
import { buildCheckout } from '../domain/checkout.ts';
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
  saleVersion: number;
  catalogueVersion: number;
  userId: number | null;
  /** The signed-in user's row as it was (its xmin, which every update moves on). */
  userRow: string | null;
  /** The clock's span (ms) in which the body is what building it again would give. */
  from: number;
  until: number;
}

const replyOf = (json: string): CheckoutReply => ({ json, etag: `"${createHash('sha1').update(json).digest('base64url')}"` });

/**
 * GET checkout, built once per version of what it shows. The sale's version moves on with every
 * write to the sale or what belongs to it, the catalogue's with every write to what the checkout
 * shows of it, both in the writing transaction (triggers; migration 0024), and the signed-in user's
 * row with every update of it: one indexed read of the three says whether the checkout built last
 * still holds, so a change is seen by the next read,
 * whichever process wrote it. Time moves the checkout on too: a running hold's countdown changes
 * each second and its end sends the sale back to the basket, so a body is kept only until its
 * countdown would read differently, and at most `keepMs` in any case (what `now` decides beyond the
 * countdown, such as which of an organiser's dates are still to come).
 *
 * The ETag is a hash of the body: a browser that sends it back (If-None-Match) while it still
 * matches is answered 304 with no body.
 */
export function checkoutReads(deps: AppDeps, { keepMs = 5_000, entries = 5_000 }: { keepMs?: number; entries?: number } = {}) {
  const built = new Map<string, Built>();
  const sitekey = deps.config.captcha === 'never' ? null : deps.captcha.sitekey;
  const empty = replyOf(JSON.stringify(emptyCheckout(sitekey)));

  async function versions(saleId: string, userId: number | null) {
    const [row] = await preparedRows<{ version: string | number; catalogue: string | number; user_row: string | null; deadline_ms: number | null }>(
      deps.db,
      'checkout_versions',
      `SELECT s.version, (SELECT c.version FROM catalogue_version c WHERE c.id = 1) AS catalogue,
              (SELECT u.xmin::text FROM users u WHERE u.id = $2::int) AS user_row,
              (extract(epoch FROM s.hold_deadline) * 1000)::float8 AS deadline_ms
         FROM sales s WHERE s.id = $1`,
      [saleId, userId],
    );
    return row
      ? { sale: Number(row.version), catalogue: Number(row.catalogue ?? 0), userRow: row.user_row, deadlineMs: row.deadline_ms === null ? null : Number(row.deadline_ms) }
      : null;
  }

  return async function read(request: FastifyRequest): Promise<CheckoutReply> {
    const saleId = saleIdOf(request);
    if (!saleId) return empty;
    const userId = userIdOf(request);
    const current = await versions(saleId, userId);
    if (!current) return empty;
    const now = deps.clock();
    const at = now.getTime();
    const kept = built.get(saleId);
    if (kept && kept.saleVersion === current.sale && kept.catalogueVersion === current.catalogue && kept.userId === userId && kept.userRow === current.userRow && at >= kept.from && at < kept.until) {
      return kept.reply;
    }
    const checkout = await buildCheckout(deps.db, saleId, now, { captchaSitekey: sitekey, userId, maxPerOrder: deps.config.maxPerOrder });
    const reply = replyOf(JSON.stringify(checkout));
    let until = at + keepMs;
    // A payment in progress counts down to a time read with the body: built again each read.
    if (checkout.payment_in_progress) until = at;
    // seconds_remaining = ceil((deadline - now) / 1000) reads one less from deadline - 1000 × (seconds - 1).
    else if (checkout.seconds_remaining > 0) until = current.deadlineMs === null ? at : Math.min(until, current.deadlineMs - 1000 * (checkout.seconds_remaining - 1));
    built.delete(saleId);
    if (until > at) {
      built.set(saleId, { reply, saleVersion: current.sale, catalogueVersion: current.catalogue, userId, userRow: current.userRow, from: at, until });
      // The oldest built goes first once there are `entries`.
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
