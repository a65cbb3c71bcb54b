/**
 * The sandbox processor's card vault: it tokenises a card (Luhn, expiry and CVC checked as on its
 * card page) into a saved card `pm_sandbox_…` for off-session charges, or a single-use nonce
 * `cnon:sandbox-…` for Square's sandbox, and charges a saved card once per idempotency key.
 * Test numbers: 4000 0000 0000 0002 declines, 4000 0000 0000 9995 is short of funds, and
 * 4000 0000 0000 0341 is approved while the buyer is present but declined when charged later;
 * 4000 0000 0000 3220, saved for a plan, asks the buyer's bank to confirm the first instalment.
 */
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Executor } from '../../db/index.ts';
import { sandboxCards, sandboxCharges } from '../../db/schema.ts';
import { SANDBOX_CARDS } from '../../../contract/index.ts';
import { Refusal } from '../refusal.ts';
import { checkCard, SANDBOX_MESSAGES } from '../payment/sandbox.ts';

/** The sandbox bank's page where a plan's first instalment is confirmed (redirect_to_url): server/routes/sandbox/planAuthentication.ts. */
export const PLAN_AUTHENTICATION_PATH = '/sandbox/plan/authenticate/';

/** Approved with the buyer present, declined off-session (Stripe's 4000 0000 0000 0341 behaves alike). */
export const SANDBOX_FAIL_LATER_CARD = '4000000000000341';

export type SandboxCard = typeof sandboxCards.$inferSelect;

function brandOf(number: string): string {
  if (/^4/.test(number)) return 'visa';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'mastercard';
  if (/^3[47]/.test(number)) return 'amex';
  return 'unknown';
}

function behaviourOf(number: string): SandboxCard['behaviour'] {
  if (number === SANDBOX_CARDS.decline) return 'decline';
  if (number === SANDBOX_CARDS.insufficientFunds) return 'insufficient_funds';
  if (number === SANDBOX_FAIL_LATER_CARD) return 'fail_off_session';
  if (number === SANDBOX_CARDS.challenge) return 'challenge';
  return 'approve';
}

/** Tokenises a card, refusing in the card form's words a card the form would refuse. */
export async function tokeniseSandboxCard(
  db: Pick<Executor, 'insert'>,
  card: { number: string; expiry: string; cvc: string },
  kind: SandboxCard['kind'],
  now: Date,
): Promise<SandboxCard> {
  const check = checkCard(card, now);
  if (check.kind === 'invalid') throw new Refusal('invalid-details', check.message);
  const number = card.number.replace(/[\s-]/g, '');
  const [, mm, yy] = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(card.expiry)!;
  const id =
    kind === 'payment_method'
      ? `pm_sandbox_${randomBytes(12).toString('hex')}`
      : `cnon:sandbox-${randomBytes(12).toString('hex')}`;
  const [row] = await db
    .insert(sandboxCards)
    .values({
      id,
      kind,
      brand: brandOf(number),
      last4: number.slice(-4),
      expMonth: Number(mm),
      expYear: yy!.length === 2 ? 2000 + Number(yy) : Number(yy),
      funding: 'credit',
      behaviour: behaviourOf(number),
      createdAt: now,
    })
    .returning();
  return row!;
}

export async function findSandboxCard(db: Pick<Executor, 'select'>, id: string): Promise<SandboxCard | null> {
  const [row] = await db.select().from(sandboxCards).where(eq(sandboxCards.id, id));
  return row ?? null;
}

/** Stripe's words for a key reused with other parameters. */
export const IDEMPOTENCY_MISMATCH_MESSAGE =
  'Keys for idempotent requests can only be used with the same parameters they were first used with.';

export type SandboxCharge =
  | { status: 'succeeded'; id: string }
  | { status: 'failed'; id: string; message: string }
  | { status: 'requires_action' };

/**
 * Charges a card once per idempotency key: asking again with the same key answers the first
 * charge, as Stripe and Square do. A nonce is spent by its first charge.
 */
export async function chargeSandboxCard(
  db: Pick<Executor, 'select' | 'insert' | 'update'>,
  p: {
    cardId: string;
    amount: number;
    currency: string;
    idempotencyKey: string;
    offSession: boolean;
    now: Date;
    authenticated?: boolean;
    autocomplete?: boolean;
  },
): Promise<SandboxCharge> {
  const [earlier] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.idempotencyKey, p.idempotencyKey));
  // A key answers only the request it was first used for: another amount, currency or card is refused.
  if (
    earlier &&
    (earlier.amount !== p.amount || earlier.currency !== p.currency.toLowerCase() || earlier.cardId !== p.cardId)
  ) {
    throw new Refusal('conflict', IDEMPOTENCY_MISMATCH_MESSAGE);
  }
  if (earlier)
    return earlier.status === 'succeeded' || earlier.status === 'approved'
      ? { status: 'succeeded', id: earlier.id }
      : { status: 'failed', id: earlier.id, message: earlier.failureMessage ?? SANDBOX_MESSAGES.declined };
  const card = await findSandboxCard(db, p.cardId);
  if (!card) throw new Refusal('not-found', 'No such card');
  // The challenge card asks the buyer's bank to confirm a charge taken with the buyer present.
  if (card.behaviour === 'challenge' && !p.offSession && !p.authenticated && card.kind === 'payment_method')
    return { status: 'requires_action' };
  const spent = card.kind === 'nonce' && card.usedAt !== null;
  const message = spent
    ? 'This card token has already been used.'
    : card.behaviour === 'decline' || (card.behaviour === 'fail_off_session' && p.offSession)
      ? SANDBOX_MESSAGES.declined
      : card.behaviour === 'insufficient_funds'
        ? SANDBOX_MESSAGES.insufficientFunds
        : null;
  const id = `ch_sandbox_${randomBytes(12).toString('hex')}`;
  await db.insert(sandboxCharges).values({
    id,
    idempotencyKey: p.idempotencyKey,
    cardId: card.id,
    amount: p.amount,
    currency: p.currency.toLowerCase(),
    // Not completed at once (Square's autocomplete: false): approved until completed or cancelled.
    status: message ? 'failed' : p.autocomplete === false ? 'approved' : 'succeeded',
    failureMessage: message,
    createdAt: p.now,
  });
  if (card.kind === 'nonce' && !spent)
    await db.update(sandboxCards).set({ usedAt: p.now }).where(eq(sandboxCards.id, card.id));
  return message ? { status: 'failed', id, message } : { status: 'succeeded', id };
}

/** Gives a succeeded charge back in full; refunding one already refunded is done. */
export async function refundSandboxCharge(db: Pick<Executor, 'select' | 'update'>, chargeId: string): Promise<void> {
  const [charge] = await db.select().from(sandboxCharges).where(eq(sandboxCharges.id, chargeId));
  if (!charge) throw new Refusal('not-found', 'No such charge');
  if (charge.status === 'refunded') return;
  if (charge.status !== 'succeeded') throw new Refusal('conflict', 'Only a charge taken can be refunded');
  await db.update(sandboxCharges).set({ status: 'refunded' }).where(eq(sandboxCharges.id, chargeId));
}

export async function findSandboxCharge(db: Pick<Executor, 'select'>, by: { id: string } | { idempotencyKey: string }) {
  const [row] = await db
    .select()
    .from(sandboxCharges)
    .where('id' in by ? eq(sandboxCharges.id, by.id) : eq(sandboxCharges.idempotencyKey, by.idempotencyKey));
  return row ?? null;
}

/** Completes an approved charge (taken now); one completed already is done. */
export async function completeSandboxCharge(db: Pick<Executor, 'select' | 'update'>, chargeId: string): Promise<void> {
  const charge = await findSandboxCharge(db, { id: chargeId });
  if (!charge) throw new Refusal('not-found', 'No such charge');
  if (charge.status === 'succeeded') return;
  if (charge.status !== 'approved') throw new Refusal('conflict', `A charge ${charge.status} cannot be completed`);
  await db.update(sandboxCharges).set({ status: 'succeeded' }).where(eq(sandboxCharges.id, chargeId));
}

/** Gives a charge back: an approved one is cancelled (never taken), a taken one refunded. */
export async function voidOrRefundSandboxCharge(
  db: Pick<Executor, 'select' | 'update'>,
  chargeId: string,
): Promise<void> {
  const charge = await findSandboxCharge(db, { id: chargeId });
  if (!charge) throw new Refusal('not-found', 'No such charge');
  if (charge.status === 'approved')
    await db.update(sandboxCharges).set({ status: 'cancelled' }).where(eq(sandboxCharges.id, chargeId));
  else if (charge.status === 'succeeded') await refundSandboxCharge(db, chargeId);
}
