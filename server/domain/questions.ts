/**
 * Ticket questions (spec 001 §3 Question, §4 Questions, §5, §7 save_question_answers): the
 * questions of a basket's ticket types for the checkout object, the Basket step's intro, and
 * the answers a buyer saves. Answers are checked whole before anything is written: a refusal
 * saves nothing.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Database, Executor } from '../db/index.ts';
import { type questionIntros, saleLines, saleQuestionAnswers, ticketQuestions } from '../db/schema.ts';
import {
  QUESTION_REFUSALS,
  answerRefusal,
  type AnswerEntry,
  type BeforeOrAfter,
  type Question,
} from '../../contract/index.ts';
import { Refusal } from './refusal.ts';
import { holdIsLive, lockSale } from './sales.ts';

type QuestionRow = typeof ticketQuestions.$inferSelect;

export function toWireQuestion(row: QuestionRow): Question {
  return {
    id: row.id,
    ticket_id: row.ticketTypeId,
    question: row.question,
    type: row.type,
    mandatory: row.mandatory ? '1' : '0',
    once_per_checkout: row.oncePerCheckout ? '1' : '0',
    osq_id: row.osqId,
    prepopulated_array: row.options,
  };
}

async function questionRows(
  db: Pick<Executor, 'select'>,
  ticketTypeIds: number[],
  phase?: BeforeOrAfter,
): Promise<QuestionRow[]> {
  if (ticketTypeIds.length === 0) return [];
  const ofTypes = inArray(ticketQuestions.ticketTypeId, ticketTypeIds);
  return db
    .select()
    .from(ticketQuestions)
    .where(phase ? and(ofTypes, eq(ticketQuestions.beforeOrAfter, phase)) : ofTypes)
    .orderBy(asc(ticketQuestions.sortOrder), asc(ticketQuestions.id));
}

/**
 * The checkout's before_payment_questions and after_payment_questions (for the ticket types in the
 * basket, in display order) and each event's Basket-step intro: its own, else its organiser's.
 * `rows` are the basket types' questions in display order; `intros` those of its events and their
 * organisers (both read with the checkout, in `checkout_snapshot`).
 */
export function checkoutQuestions(
  rows: QuestionRow[],
  intros: (typeof questionIntros.$inferSelect)[],
  events: { id: number; organiserId: number }[],
): { before: Question[]; after: Question[]; introOf: (eventId: number) => string | null } {
  return {
    before: rows.filter((r) => r.beforeOrAfter === 'before').map(toWireQuestion),
    after: rows.filter((r) => r.beforeOrAfter === 'after').map(toWireQuestion),
    introOf: (eventId) => {
      const event = events.find((e) => e.id === eventId);
      const own = intros.find((i) => i.eventId === eventId);
      const organisers = event ? intros.find((i) => i.organiserId === event.organiserId) : undefined;
      return (own ?? organisers)?.text ?? null;
    },
  };
}

/**
 * save_question_answers: the answers of one phase replace that phase's earlier answers. Before
 * payment the tickets must still be held; after payment the order must be paid. Every answer must
 * be about one of the sale's own tickets (and copies), once; text at most 300 characters; a
 * dropdown answer one of its options; every mandatory question answered on every copy.
 */
export async function saveQuestionAnswers(
  db: Database,
  saleId: string,
  input: { answers: AnswerEntry[]; beforeOrAfter: BeforeOrAfter },
  now: Date,
): Promise<{ saved: number }> {
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, saleId);
    if (input.beforeOrAfter === 'before' && (sale.paidAt !== null || !holdIsLive(sale, now))) {
      throw new Refusal('hold-lost', QUESTION_REFUSALS.notHeld);
    }
    if (input.beforeOrAfter === 'after' && sale.paidAt === null)
      throw new Refusal('not-paid', QUESTION_REFUSALS.notPaid);

    const lines = await tx
      .select({ ticketTypeId: saleLines.ticketTypeId, qty: saleLines.qty })
      .from(saleLines)
      .where(eq(saleLines.saleId, saleId));
    const qtyOf = new Map(lines.map((l) => [l.ticketTypeId, l.qty]));
    const questions = await questionRows(tx, [...qtyOf.keys()], input.beforeOrAfter);
    const byId = new Map(questions.map((q) => [q.id, q]));

    const given = new Set<string>();
    for (const entry of input.answers) {
      const question = byId.get(entry.question_id);
      const qty = qtyOf.get(entry.ticket_id) ?? 0;
      const copyFits = question?.oncePerCheckout ? entry.copy === null : entry.copy !== null && entry.copy < qty;
      if (!question || question.ticketTypeId !== entry.ticket_id || !copyFits)
        throw new Refusal('invalid-input', QUESTION_REFUSALS.notYourTicket);
      const key = `${question.id}:${entry.copy}`;
      if (given.has(key)) throw new Refusal('invalid-input', QUESTION_REFUSALS.twice);
      given.add(key);
      const refusal = answerRefusal(toWireQuestion(question), entry.answer);
      if (refusal) throw new Refusal('invalid-input', refusal);
    }
    for (const question of questions) {
      if (!question.mandatory) continue;
      const copies = question.oncePerCheckout
        ? [null]
        : Array.from({ length: qtyOf.get(question.ticketTypeId) ?? 0 }, (_, i) => i);
      if (copies.some((copy) => !given.has(`${question.id}:${copy}`)))
        throw new Refusal('invalid-input', QUESTION_REFUSALS.missing(question.question));
    }

    await tx
      .delete(saleQuestionAnswers)
      .where(and(eq(saleQuestionAnswers.saleId, saleId), eq(saleQuestionAnswers.beforeOrAfter, input.beforeOrAfter)));
    if (input.answers.length > 0) {
      await tx.insert(saleQuestionAnswers).values(
        input.answers.map((entry) => ({
          saleId,
          questionId: entry.question_id,
          ticketTypeId: entry.ticket_id,
          copy: entry.copy,
          beforeOrAfter: input.beforeOrAfter,
          answer: entry.answer,
          answeredAt: now,
        })),
      );
    }
    return { saved: input.answers.length };
  });
}

/** A sale's saved answers of one phase, in the order given. */
export async function savedAnswers(db: Pick<Executor, 'select'>, saleId: string, beforeOrAfter: BeforeOrAfter) {
  return db
    .select()
    .from(saleQuestionAnswers)
    .where(and(eq(saleQuestionAnswers.saleId, saleId), eq(saleQuestionAnswers.beforeOrAfter, beforeOrAfter)))
    .orderBy(asc(saleQuestionAnswers.id));
}
