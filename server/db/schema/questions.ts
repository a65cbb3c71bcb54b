/**
 * The questions an organiser asks about a ticket type, their intros, and the buyers' answers
 * (spec 001 §3 Question, §7 save_question_answers).
 */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { moment } from './columns.ts';
import { organisers, events, ticketTypes } from './catalogue.ts';
import { sales } from './sales.ts';

/**
 * A question an organiser asks about a ticket type, before or after payment: on every copy of the
 * ticket, or once per checkout. Questions that are one organiser question on several ticket types
 * share an `osq_id` and are asked once.
 */
export const ticketQuestions = pgTable(
  'ticket_questions',
  {
    id: serial('id').primaryKey(),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    question: text('question').notNull(),
    type: text('type', { enum: ['text', 'checkbox', 'dropdown'] }).notNull(),
    mandatory: boolean('mandatory').notNull().default(false),
    oncePerCheckout: boolean('once_per_checkout').notNull().default(false),
    osqId: integer('osq_id'),
    /** The dropdown's options, in order. */
    options: jsonb('options').$type<string[]>().notNull().default([]),
    beforeOrAfter: text('before_or_after', { enum: ['before', 'after'] }).notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [index('ticket_questions_ticket_type').on(t.ticketTypeId)],
);

/** The intro of the questions' Basket step, for an event or for all of an organiser's events. */
export const questionIntros = pgTable(
  'question_intros',
  {
    id: serial('id').primaryKey(),
    eventId: integer('event_id').references(() => events.id),
    organiserId: integer('organiser_id').references(() => organisers.id),
    text: text('text').notNull(),
  },
  (t) => [
    uniqueIndex('question_intros_event').on(t.eventId),
    uniqueIndex('question_intros_organiser').on(t.organiserId),
    check('question_intros_one_owner', sql`(${t.eventId} IS NULL) <> (${t.organiserId} IS NULL)`),
  ],
);

/**
 * A buyer's answer to a question, per ticket copy (`copy` null for a question asked once per
 * checkout). Each save of a phase replaces that phase's answers of the sale.
 */
export const saleQuestionAnswers = pgTable(
  'sale_question_answers',
  {
    id: serial('id').primaryKey(),
    saleId: text('sale_id')
      .notNull()
      .references(() => sales.id, { onDelete: 'cascade' }),
    questionId: integer('question_id')
      .notNull()
      .references(() => ticketQuestions.id),
    ticketTypeId: integer('ticket_type_id')
      .notNull()
      .references(() => ticketTypes.id),
    copy: integer('copy'),
    beforeOrAfter: text('before_or_after', { enum: ['before', 'after'] }).notNull(),
    /** A string for text and dropdown questions, a boolean for a checkbox. */
    answer: jsonb('answer').$type<string | boolean>().notNull(),
    answeredAt: moment('answered_at').notNull(),
  },
  (t) => [index('sale_question_answers_sale').on(t.saleId, t.beforeOrAfter)],
);
