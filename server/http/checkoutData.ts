/**
 * The visitor's checkout and user as the calls answer them (GET checkout, GET user), read with the
 * session's sale and user; the checkout page sends both with its first screen.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlib, gzipSync } from 'node:zlib';
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
  /**
   * The body compressed, made at the first read that accepts each encoding and kept with the body:
   * only for a body kept for later reads (`keep`), so a body is compressed at most once per version.
   */
  encoded?: Partial<Record<Encoding, Buffer>>;
}

type Encoding = 'br' | 'gzip';

/** Below this a body goes as it is: compressing it saves less than its headers weigh. */
const COMPRESS_FROM = 1024;

interface Built {
  reply: CheckoutReply;
  /** What the body was built from in the database (checkout_version), and for which signed-in user. */
  version: string;
  userId: number | null;
  /** The clock's span (ms) in which building the body again from the same rows would give the same body. */
  from: number;
  until: number;
}

const replyOf = (json: string, keep = false): CheckoutReply => ({
  json,
  etag: `"${createHash('sha1').update(json).digest('base64url')}"`,
  ...(keep && Buffer.byteLength(json) >= COMPRESS_FROM ? { encoded: {} } : {}),
});

/** The encoding to send in, from the request's Accept-Encoding: brotli, else gzip, else none (q=0 refuses one). */
export function encodingFor(acceptEncoding: string | undefined): Encoding | null {
  if (!acceptEncoding) return null;
  const accepted = new Set<string>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    if (params.some((p) => /^\s*q\s*=\s*0(\.0*)?\s*$/.test(p))) continue;
    accepted.add(name!.trim());
  }
  if (accepted.has('br')) return 'br';
  if (accepted.has('gzip') || accepted.has('*')) return 'gzip';
  return null;
}

function compressed(checkout: CheckoutReply, encoding: Encoding): Buffer {
  const kept = checkout.encoded![encoding];
  if (kept) return kept;
  const body =
    encoding === 'br'
      ? brotliCompressSync(checkout.json, {
          params: { [zlib.BROTLI_PARAM_QUALITY]: 5, [zlib.BROTLI_PARAM_MODE]: zlib.BROTLI_MODE_TEXT },
        })
      : gzipSync(checkout.json, { level: 6 });
  checkout.encoded![encoding] = body;
  return body;
}

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
export function checkoutReads(
  deps: AppDeps,
  { keepMs = 5_000, entries = 5_000 }: { keepMs?: number; entries?: number } = {},
) {
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
    if (kept && kept.version === current.version && kept.userId === userId && at >= kept.from && at < kept.until)
      return kept.reply;
    const checkout: Checkout = await buildCheckout(deps.db, saleId, now, {
      captchaSitekey: sitekey,
      userId,
      maxPerOrder: deps.config.maxPerOrder,
    });
    let until = at + keepMs;
    if (checkout.payment_in_progress) until = at;
    // seconds_remaining = ceil((deadline - now) / 1000) reads one less from deadline - 1000 × (seconds - 1).
    else if (checkout.seconds_remaining > 0)
      until =
        current.deadlineMs === null
          ? at
          : Math.min(until, current.deadlineMs - 1000 * (checkout.seconds_remaining - 1));
    const reply = replyOf(JSON.stringify(checkout), until > at);
    built.delete(saleId);
    if (until > at) {
      built.set(saleId, { reply, version: current.version, userId, from: at, until });
      // The oldest kept goes first once there are `entries`.
      if (built.size > entries) built.delete(built.keys().next().value!);
    }
    return reply;
  };
}

/** The ETag of the body sent in an encoding: the JSON's own, marked with the encoding. */
const taggedFor = (etag: string, encoding: Encoding | null) => (encoding ? `${etag.slice(0, -1)}-${encoding}"` : etag);

/**
 * Whether the request's If-None-Match names this ETag (weak or strong, in a list, or `*`), in any
 * encoding: a copy kept compressed is the same JSON once decoded.
 */
export function matchesEtag(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  const names = new Set([etag, taggedFor(etag, 'br'), taggedFor(etag, 'gzip')]);
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || names.has(t.startsWith('W/') ? t.slice(2) : t);
  });
}

/**
 * Sends GET checkout: 304 without a body when the browser's copy is current, else the JSON,
 * compressed when the browser accepts it and the body is kept (compressed once, sent many times).
 * The browser keeps the reply but asks again each time (`private, no-cache`), sending the ETag
 * itself.
 */
export function sendCheckout(request: FastifyRequest, reply: FastifyReply, checkout: CheckoutReply): FastifyReply {
  const encoding = checkout.encoded ? encodingFor(request.headers['accept-encoding']) : null;
  reply.header('cache-control', 'private, no-cache').header('etag', taggedFor(checkout.etag, encoding));
  if (checkout.encoded) reply.header('vary', 'accept-encoding');
  if (matchesEtag(request, checkout.etag)) return reply.code(304).send();
  reply.type('application/json; charset=utf-8');
  if (!encoding) return reply.send(checkout.json);
  return reply.header('content-encoding', encoding).send(compressed(checkout, encoding));
}
