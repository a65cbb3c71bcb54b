/**
 * One-time sign-in codes (spec 000 §9: 6 digits, valid for 15 minutes). A code is kept only as an
 * HMAC under the server's secret, works once, is replaced by a resend, and takes at most
 * MAX_WRONG_TRIES wrong guesses. Every change is one conditional statement, so parallel guesses
 * cannot count past the limit nor use a code twice.
 */
import { createHmac, randomInt } from 'node:crypto';
import { and, count, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../db/index.ts';
import { codeSends, oneTimeCodes } from '../db/schema.ts';
import { ONE_TIME_CODE_LENGTH, ONE_TIME_CODE_LIFETIME_MS } from '../../contract/index.ts';
import { Refusal } from './refusal.ts';

export const MAX_WRONG_TRIES = 5;

/** Codes one address may be sent, and codes one client address may ask for, per window. */
export const SEND_LIMITS = {
  perEmail: 5,
  perIp: 20,
  windowMs: 60 * 60 * 1000,
};

export const TOO_MANY_FOR_EMAIL_MESSAGE =
  'Too many codes have been sent to this email address. Please wait an hour, or use the last code we sent.';
export const TOO_MANY_FOR_IP_MESSAGE =
  'Too many codes have been asked for from your network. Please wait an hour and try again.';
export const WRONG_CODE_MESSAGE = 'That code is not right. Please check the email we sent and try again.';
export const EXPIRED_CODE_MESSAGE = 'That code has expired or was already used. Please ask for a new one.';
export const LOCKED_CODE_MESSAGE = 'Too many wrong codes. Please ask for a new one.';

export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function hashCode(secret: string, email: string, code: string): string {
  return createHmac('sha256', secret)
    .update(`one-time-code\n${normaliseEmail(email)}\n${code}`)
    .digest('hex');
}

export function newCode(): string {
  return String(randomInt(0, 10 ** ONE_TIME_CODE_LENGTH)).padStart(ONE_TIME_CODE_LENGTH, '0');
}

/**
 * Makes a new code for the address, replacing any earlier one, within the send limits. The
 * limits are counted under per-address advisory locks, so a burst cannot slip past them.
 */
export async function issueCode(
  db: Database,
  opts: { email: string; ip: string; now: Date; secret: string; limits?: typeof SEND_LIMITS; code?: string },
): Promise<string> {
  const email = normaliseEmail(opts.email);
  const limits = opts.limits ?? SEND_LIMITS;
  const code = opts.code ?? newCode();
  const since = new Date(opts.now.getTime() - limits.windowMs);
  await db.transaction(async (tx) => {
    // Fixed order (address, then client) so two sends never wait on each other in a cycle.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`code-send:email:${email}`}))`);
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`code-send:ip:${opts.ip}`}))`);
    const [byEmail] = await tx
      .select({ n: count() })
      .from(codeSends)
      .where(and(eq(codeSends.email, email), gt(codeSends.at, since)));
    if ((byEmail?.n ?? 0) >= limits.perEmail) throw new Refusal('too-many-requests', TOO_MANY_FOR_EMAIL_MESSAGE);
    const [byIp] = await tx
      .select({ n: count() })
      .from(codeSends)
      .where(and(eq(codeSends.ip, opts.ip), gt(codeSends.at, since)));
    if ((byIp?.n ?? 0) >= limits.perIp) throw new Refusal('too-many-requests', TOO_MANY_FOR_IP_MESSAGE);
    await tx.insert(codeSends).values({ email, ip: opts.ip, at: opts.now });
    const values = {
      codeHash: hashCode(opts.secret, email, code),
      expiresAt: new Date(opts.now.getTime() + ONE_TIME_CODE_LIFETIME_MS),
      wrongTries: 0,
    };
    await tx
      .insert(oneTimeCodes)
      .values({ email, ...values })
      .onConflictDoUpdate({ target: oneTimeCodes.email, set: values });
  });
  return code;
}

export type CodeCheck = 'accepted' | 'wrong' | 'expired' | 'locked';

/**
 * Uses the code if it is right, live and not locked: the row is deleted by the same statement
 * that matches it, so it works once. Otherwise one wrong try is counted, only while fewer than
 * MAX_WRONG_TRIES are counted (the row lock makes parallel guesses count one at a time).
 */
export async function checkCode(
  db: Database,
  opts: { email: string; code: string; now: Date; secret: string },
): Promise<CodeCheck> {
  const email = normaliseEmail(opts.email);
  const live = and(
    eq(oneTimeCodes.email, email),
    gt(oneTimeCodes.expiresAt, opts.now),
    lt(oneTimeCodes.wrongTries, MAX_WRONG_TRIES),
  );
  const used = await db
    .delete(oneTimeCodes)
    .where(and(live, eq(oneTimeCodes.codeHash, hashCode(opts.secret, email, opts.code))))
    .returning({ email: oneTimeCodes.email });
  if (used.length > 0) return 'accepted';
  const counted = await db
    .update(oneTimeCodes)
    .set({ wrongTries: sql`${oneTimeCodes.wrongTries} + 1` })
    .where(live)
    .returning({ wrongTries: oneTimeCodes.wrongTries });
  if (counted.length > 0) return 'wrong';
  const [row] = await db.select().from(oneTimeCodes).where(eq(oneTimeCodes.email, email));
  if (!row || row.expiresAt.getTime() <= opts.now.getTime()) return 'expired';
  return 'locked';
}

export const CODE_CHECK_MESSAGES: Record<Exclude<CodeCheck, 'accepted'>, string> = {
  wrong: WRONG_CODE_MESSAGE,
  expired: EXPIRED_CODE_MESSAGE,
  locked: LOCKED_CODE_MESSAGE,
};
