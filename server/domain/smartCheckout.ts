/**
 * The smart-checkout link (spec 000 §2, `smartcheckout/?session={sale_reference}`): the buyer
 * continues a held sale from the e-mail it came in, on any device.
 *
 * A reference alone is no key: it is printed on screens and e-mails and is short enough to guess.
 * So the link also carries an expiry and a signature (HMAC with the session secret) over the sale's
 * id, its reference, its buyer and that expiry; a guessed, altered or stale link is refused before
 * anything about the sale is read out. A signed link is still not proof of who holds it, since an
 * e-mail can be forwarded: only a browser that already is the sale's own (its sale cookie) or is
 * signed in as the sale's buyer continues at once; any other browser first proves the buyer with a
 * one-time code sent to the buyer's address (the sign-in page), and then continues.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, eq, isNotNull, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { sales, users } from '../db/schema.ts';
import { sendMail, type Mailer } from '../mail/index.ts';
import { resumeLinkMail } from '../mail/resumeLink.ts';
import { holdIsLive } from './sales.ts';
import { messages } from '../../i18n/lazy.ts';
import { writtenForBuyer } from './accountLanguage.ts';

export const SMART_CHECKOUT_PATH = '/smartcheckout/';
/** How long an e-mailed link works: past any hold, so a late click still reaches the order's own page. */
export const SMART_LINK_HOURS = 24;

/** The link's refusals and its request to sign in, each read in the request's language. */
export const SMART_LINK_MESSAGES = messages({
  invalidLink: 'page.smart.invalidLink',
  expiredLink: 'page.smart.expiredLink',
  otherBuyer: 'page.smart.otherBuyer',
  proveBuyer: 'page.smart.proveBuyer',
});

const REFERENCE = /^HF-[A-Z2-9]{8}$/;
const SIGNATURE = /^[A-Za-z0-9_-]{43}$/;

export interface SmartLinkParts {
  session: string;
  expires: number;
  signature: string;
}

function sign(secret: string, sale: { id: string; reference: string; userId: number }, expires: number): string {
  return createHmac('sha256', secret)
    .update(`smartcheckout\n${sale.id}\n${sale.reference}\n${sale.userId}\n${expires}`)
    .digest('base64url');
}

/** The link's path and query, for a sale with a buyer and a reference; expires in SMART_LINK_HOURS. */
export function smartCheckoutPath(
  secret: string,
  sale: { id: string; reference: string; userId: number },
  now: Date,
): string {
  const expires = Math.floor(now.getTime() / 1000) + SMART_LINK_HOURS * 3600;
  const query = new URLSearchParams({
    session: sale.reference,
    expires: String(expires),
    signature: sign(secret, sale, expires),
  });
  return `${SMART_CHECKOUT_PATH}?${query.toString()}`;
}

/** The link's parts from a query, or null when one is missing or malformed. */
export function parseSmartLink(query: unknown): SmartLinkParts | null {
  const q = (query ?? {}) as Record<string, unknown>;
  const { session, expires, signature } = q;
  if (typeof session !== 'string' || !REFERENCE.test(session)) return null;
  if (typeof expires !== 'string' || !/^[0-9]{1,12}$/.test(expires)) return null;
  if (typeof signature !== 'string' || !SIGNATURE.test(signature)) return null;
  return { session, expires: Number(expires), signature };
}

export type SmartLinkVerdict =
  | { kind: 'invalid' }
  | { kind: 'expired' }
  | { kind: 'valid'; sale: { id: string; reference: string; userId: number } };

/**
 * Which sale a link names, if its signature holds. An unknown reference and a wrong signature are
 * the same answer, so trying references teaches nothing; the expiry is judged only once the
 * signature proves it was not altered.
 */
export async function verifySmartLink(
  db: Database,
  secret: string,
  parts: SmartLinkParts | null,
  now: Date,
): Promise<SmartLinkVerdict> {
  if (!parts) return { kind: 'invalid' };
  const candidates = await db
    .select({ id: sales.id, reference: sales.reference, userId: sales.userId })
    .from(sales)
    .where(and(eq(sales.reference, parts.session), isNotNull(sales.userId)));
  const given = Buffer.from(parts.signature);
  for (const c of candidates) {
    const sale = { id: c.id, reference: c.reference!, userId: c.userId! };
    const expected = Buffer.from(sign(secret, sale, parts.expires));
    if (expected.length === given.length && timingSafeEqual(expected, given)) {
      return parts.expires * 1000 < now.getTime() ? { kind: 'expired' } : { kind: 'valid', sale };
    }
  }
  return { kind: 'invalid' };
}

/**
 * E-mails the buyer the link to continue their held sale, once per hold: called when the sale
 * gets its buyer. Nothing is sent for a sale without a live hold or a buyer.
 */
export async function offerResumeLink(
  db: Database,
  deps: { mailer: Mailer; brandName: string; publicUrl: string; secret: string },
  saleId: string,
  now: Date,
): Promise<boolean> {
  const [sale] = await db
    .select({
      id: sales.id,
      reference: sales.reference,
      userId: sales.userId,
      holdDeadline: sales.holdDeadline,
      paidAt: sales.paidAt,
      sentFor: sales.resumeLinkSentFor,
      email: users.email,
    })
    .from(sales)
    .innerJoin(users, eq(users.id, sales.userId))
    .where(eq(sales.id, saleId));
  if (
    !sale ||
    !sale.reference ||
    sale.userId === null ||
    sale.paidAt ||
    !holdIsLive(sale, now) ||
    sale.sentFor === sale.reference
  )
    return false;
  // Claimed before sending, so two requests at once send one e-mail.
  const claimed = await db
    .update(sales)
    .set({ resumeLinkSentFor: sale.reference })
    .where(
      and(
        eq(sales.id, saleId),
        eq(sales.reference, sale.reference),
        sql`${sales.resumeLinkSentFor} IS DISTINCT FROM ${sale.reference}`,
      ),
    )
    .returning({ id: sales.id });
  if (claimed.length === 0) return false;
  const link = `${deps.publicUrl}${smartCheckoutPath(deps.secret, { id: sale.id, reference: sale.reference, userId: sale.userId }, now)}`;
  const reference = sale.reference;
  // In the language the buyer's request chose, else the one their account keeps.
  const content = await writtenForBuyer(db, { userId: sale.userId }, () =>
    resumeLinkMail(deps.brandName, { saleReference: reference, heldUntil: sale.holdDeadline!, link }),
  );
  await sendMail(db, deps.mailer, deps.brandName, { to: sale.email, ...content }, now);
  return true;
}
