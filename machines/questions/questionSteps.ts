/**
 * The steps of the ticket questions form (spec 001 §2 Ticket Questions, §3 Question): one step per
 * ticket copy that has questions of its own, then one 'Basket' step for the questions asked once
 * per checkout. Pure: built from the checkout's questions and ticket lines.
 */
import {
  emptyAnswer,
  isAnswered,
  isMandatory,
  isOncePerCheckout,
  onceGroupKey,
  type AnswerEntry,
  type AnswerValue,
  type Question,
  type TicketLine,
} from '../../contract';
import { QUESTION_STEP_WORDS } from '../../contract/messages/questions';

/** What the form needs of a ticket line. */
export type QuestionTicket = Pick<TicketLine, 'ticket_id' | 'qty' | 'event_name' | 'ticket_name'>;

/** Where one answer goes on the wire. */
export type AnswerTarget = Pick<AnswerEntry, 'ticket_id' | 'question_id' | 'copy'>;

/** One question as the buyer is asked it: on one ticket copy, or once for the whole basket. */
export interface AskedQuestion {
  /** Unique in the form. */
  key: string;
  question: Pick<Question, 'question' | 'type' | 'mandatory' | 'prepopulated_array'>;
  /** The answer goes to each of these (several for one organiser question on several ticket types). */
  targets: AnswerTarget[];
}

export interface QuestionStep {
  kind: 'ticket' | 'basket';
  /** The step pill: 'Ticket 1', 'Ticket 2', ... and 'Basket'. */
  label: string;
  /** What the step is about: the event and ticket, or the whole basket. */
  heading: string;
  questions: AskedQuestion[];
}

/** What loadQuestions gives the form: the checkout's questions of one phase and its tickets. */
export interface QuestionsSource {
  questions: Question[];
  tickets: QuestionTicket[];
  /** A custom intro for the Basket step (the event's or the organiser's), or null. */
  intro: string | null;
}

export function buildSteps(source: Pick<QuestionsSource, 'questions' | 'tickets'>): QuestionStep[] {
  const steps: QuestionStep[] = [];
  const perTicket = source.questions.filter((q) => !isOncePerCheckout(q));
  const ticketIds = new Set(source.tickets.map((t) => t.ticket_id));
  for (const ticket of source.tickets) {
    const own = perTicket.filter((q) => q.ticket_id === ticket.ticket_id);
    if (own.length === 0) continue;
    for (let copy = 0; copy < ticket.qty; copy++) {
      steps.push({
        kind: 'ticket',
        label: QUESTION_STEP_WORDS.ticketLabel(steps.length + 1),
        heading: QUESTION_STEP_WORDS.ticketHeading(
          ticket.event_name,
          ticket.ticket_name,
          ticket.qty > 1 ? { n: copy + 1, qty: ticket.qty } : null,
        ),
        questions: own.map((q) => ({
          key: `t${ticket.ticket_id}-q${q.id}-c${copy}`,
          question: q,
          targets: [{ ticket_id: ticket.ticket_id, question_id: q.id, copy }],
        })),
      });
    }
  }
  const groups = new Map<string, AskedQuestion>();
  for (const q of source.questions) {
    if (!isOncePerCheckout(q) || !ticketIds.has(q.ticket_id)) continue;
    const key = onceGroupKey(q);
    const target = { ticket_id: q.ticket_id, question_id: q.id, copy: null };
    const group = groups.get(key);
    if (group) group.targets.push(target);
    else groups.set(key, { key: `basket-${key}`, question: q, targets: [target] });
  }
  if (groups.size > 0) {
    steps.push({
      kind: 'basket',
      label: QUESTION_STEP_WORDS.basketLabel,
      heading: QUESTION_STEP_WORDS.basketHeading,
      questions: [...groups.values()],
    });
  }
  return steps;
}

/** Whether a mandatory question of the step has no answer yet. */
export function isMissingAnswers(step: QuestionStep, answers: Record<string, AnswerValue>): boolean {
  return step.questions.some((q) => isMandatory(q.question) && !isAnswered(q.question, answers[q.key]));
}

/** The save_question_answers entries: every question of every step, unanswered ones empty. */
export function answerEntries(steps: QuestionStep[], answers: Record<string, AnswerValue>): AnswerEntry[] {
  return steps.flatMap((step) =>
    step.questions.flatMap((q) =>
      q.targets.map((target) => ({ ...target, answer: answers[q.key] ?? emptyAnswer(q.question) })),
    ),
  );
}
