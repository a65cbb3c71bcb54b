import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { Question } from '../../contract';
import { walk, type Expectation, type WalkEvent } from '../testing/walk';
import { questionsSenders, viewQuestions, type QuestionsView } from './questions.connect';
import { questionsMachine } from './questions.machine';
import { answerEntries, buildSteps, type QuestionsSource } from './questionSteps';

/* ---------- the form the walk answers: one ticket with its own questions, and one asked per checkout ---------- */

const base = { osq_id: null, prepopulated_array: [] as string[] };
const NAME: Question = {
  ...base,
  id: 1,
  ticket_id: 11,
  question: 'Name on the ticket',
  type: 'text',
  mandatory: '1',
  once_per_checkout: '0',
};
const ACCESS: Question = {
  ...base,
  id: 2,
  ticket_id: 11,
  question: 'Do you need step-free access?',
  type: 'checkbox',
  mandatory: '0',
  once_per_checkout: '0',
};
const HEARD: Question = {
  ...base,
  id: 3,
  ticket_id: 11,
  question: 'How did you hear about us?',
  type: 'dropdown',
  mandatory: '1',
  once_per_checkout: '1',
  prepopulated_array: ['Radio', 'Friends'],
};
/** The child's ticket asks one optional question: its step is complete as soon as it is visited. */
const CHILD_ACCESS: Question = { ...ACCESS, id: 4, ticket_id: 12 };
const SOURCE: QuestionsSource = {
  questions: [NAME, ACCESS, HEARD, CHILD_ACCESS],
  tickets: [
    { ticket_id: 11, qty: 1, event_name: 'Lantern Trail', ticket_name: 'Adult' },
    { ticket_id: 12, qty: 1, event_name: 'Lantern Trail', ticket_name: 'Child' },
  ],
  intro: 'A few details help our rangers look after everyone.',
};

/** The form as the spec describes it, written out by hand: a step per ticket, then 'Basket'. */
const FORM = [
  {
    label: 'Ticket 1',
    heading: 'Lantern Trail: Adult',
    basket: false,
    questions: [
      { key: 't11-q1-c0', q: NAME },
      { key: 't11-q2-c0', q: ACCESS },
    ],
  },
  {
    label: 'Ticket 2',
    heading: 'Lantern Trail: Child',
    basket: false,
    questions: [{ key: 't12-q4-c0', q: CHILD_ACCESS }],
  },
  { label: 'Basket', heading: 'Your whole order', basket: true, questions: [{ key: 'basket-q-3', q: HEARD }] },
];

const LONG = 'x'.repeat(295);
const TOO_LONG = 'y'.repeat(320);
const SERVER_TEXT = "Please enter your answer to 'Name on the ticket'";
const UNABLE = 'Unable to save your answers. Please try again';
const UNAVAILABLE = 'Unable to get Checkout data. Please try again later';
const ENTER = 'Please enter your answer';

/* ---------- the oracle: a reference model of spec 001 §4 and §5, replayed from the events ---------- */

interface Model {
  phase: 'loading' | 'unavailable' | 'answering' | 'saving' | 'saved';
  current: number;
  visited: Set<number>;
  pointedOut: Set<number>;
  answers: Map<string, string | boolean>;
  problem: string | null;
}

function answered(q: Question, value: string | boolean | undefined): boolean {
  if (q.type === 'checkbox') return value === true;
  if (q.type === 'dropdown') return typeof value === 'string' && q.prepopulated_array.includes(value);
  return typeof value === 'string' && value.trim().length > 0;
}

function missing(model: Model, index: number): boolean {
  return FORM[index]!.questions.some(({ key, q }) => q.mandatory === '1' && !answered(q, model.answers.get(key)));
}

/** Spec 001 §4: a step is completed when visited and all its mandatory answers are present. */
const completed = (model: Model, index: number) => model.visited.has(index) && !missing(model, index);

function step(model: Model, event: WalkEvent): Model {
  const m: Model = {
    ...model,
    visited: new Set(model.visited),
    pointedOut: new Set(model.pointedOut),
    answers: new Map(model.answers),
  };
  switch (event.type) {
    case 'xstate.done.actor.loadQuestions':
      return { ...m, phase: 'answering', current: 0, visited: new Set([0]) };
    case 'xstate.error.actor.loadQuestions':
      return { ...m, phase: 'unavailable', problem: UNAVAILABLE };
    case 'RETRY_CLICKED':
      return m.phase === 'unavailable' ? { ...m, phase: 'loading', problem: null } : m;
    case 'xstate.done.actor.saveQuestionAnswers':
      return { ...m, phase: 'saved' };
    case 'xstate.error.actor.saveQuestionAnswers':
      return { ...m, phase: 'answering', problem: (event.error as Error).message || UNABLE };
  }
  if (m.phase !== 'answering') return m;
  if (event.type === 'ANSWER_CHANGED') {
    const asked = FORM[m.current]!.questions.find((q) => q.key === event.key);
    const value = event.value as string | boolean;
    if (!asked) return m;
    const fits =
      asked.q.type === 'checkbox'
        ? typeof value === 'boolean'
        : asked.q.type === 'dropdown'
          ? value === '' || asked.q.prepopulated_array.includes(value as string)
          : typeof value === 'string';
    // §5: text answers max 300 characters.
    if (fits) m.answers.set(asked.key, typeof value === 'string' ? value.slice(0, 300) : value);
    return m;
  }
  if (event.type === 'STEP_CHOSEN') {
    const index = event.index as number;
    if (Number.isInteger(index) && index >= 0 && index < FORM.length && index !== m.current) {
      m.current = index;
      m.visited.add(index);
    }
    return m;
  }
  if (event.type === 'CONTINUE_CLICKED') {
    if (missing(m, m.current)) m.pointedOut.add(m.current);
    else if (m.current < FORM.length - 1) {
      m.current += 1;
      m.visited.add(m.current);
    } else if (FORM.every((_, i) => completed(m, i))) {
      // §4: submit only once every step is completed.
      return { ...m, phase: 'saving', problem: null };
    } else {
      const first = FORM.findIndex((_, i) => !completed(m, i));
      m.current = first;
      m.visited.add(first);
      m.pointedOut.add(first);
    }
  }
  return m;
}

const start: Model = {
  phase: 'loading',
  current: 0,
  visited: new Set(),
  pointedOut: new Set(),
  answers: new Map(),
  problem: null,
};

function expectedView(m: Model): QuestionsView {
  const form = m.phase === 'loading' || m.phase === 'unavailable' ? [] : FORM;
  const shown = form[m.current];
  return {
    loading: m.phase === 'loading',
    problem: m.problem,
    canRetry: m.phase === 'unavailable',
    steps: form.map((s, i) => ({ label: s.label, current: i === m.current, complete: completed(m, i) })),
    step: shown
      ? { index: m.current, heading: shown.heading, isBasket: shown.basket, intro: shown.basket ? SOURCE.intro : null }
      : null,
    questions: (shown?.questions ?? []).map(({ key, q }) => {
      const value = m.answers.get(key) ?? (q.type === 'checkbox' ? false : '');
      const remaining = q.type === 'text' ? 300 - (value as string).length : null;
      return {
        key,
        label: q.question,
        type: q.type,
        mandatory: q.mandatory === '1',
        value,
        options: q.prepopulated_array,
        remaining,
        warning: remaining !== null && remaining <= 10,
        problem: m.pointedOut.has(m.current) && q.mandatory === '1' && !answered(q, value) ? ENTER : null,
      };
    }),
    canSubmit: form.length > 0 && form.every((_, i) => completed(m, i)),
    isLastStep: form.length > 0 && m.current === form.length - 1,
    saving: m.phase === 'saving',
    saved: m.phase === 'saved',
  };
}

/** The wire entries for the answers of a model: every question, unanswered ones empty. */
function payload(m: Model) {
  return {
    before_or_after: 'before',
    answers: [
      { ticket_id: 11, question_id: 1, copy: 0, answer: m.answers.get('t11-q1-c0') ?? '' },
      { ticket_id: 11, question_id: 2, copy: 0, answer: m.answers.get('t11-q2-c0') ?? false },
      { ticket_id: 12, question_id: 4, copy: 0, answer: m.answers.get('t12-q4-c0') ?? false },
      { ticket_id: 11, question_id: 3, copy: null, answer: m.answers.get('basket-q-3') ?? '' },
    ],
  };
}

const running = (m: Model) =>
  m.phase === 'loading' ? ['loadQuestions'] : m.phase === 'saving' ? ['saveQuestionAnswers'] : [];

describe('questions machine', () => {
  it('is walked at 100 %: steps, pills, mandatory answers, the 300-character limit, submit only when every step is complete', async () => {
    const result = await walk<QuestionsView>({
      name: 'questions',
      machine: questionsMachine,
      input: { beforeOrAfter: 'before' },
      fakes: (kit) => ({ actors: { loadQuestions: kit.controlled(), saveQuestionAnswers: kit.controlled() } }),
      askIgnored: true,
      events: {
        'xstate.done.actor.loadQuestions': [{ type: 'xstate.done.actor.loadQuestions', output: SOURCE }],
        'xstate.error.actor.loadQuestions': [{ type: 'xstate.error.actor.loadQuestions', error: new Error('offline') }],
        'xstate.done.actor.saveQuestionAnswers': [
          { type: 'xstate.done.actor.saveQuestionAnswers', output: { questions_set: true } },
        ],
        // Each error carries its text as a field too, so the two are two paths (an Error alone serialises as {}).
        'xstate.error.actor.saveQuestionAnswers': [
          {
            type: 'xstate.error.actor.saveQuestionAnswers',
            error: Object.assign(new Error(SERVER_TEXT), { text: SERVER_TEXT }),
          },
          { type: 'xstate.error.actor.saveQuestionAnswers', error: Object.assign(new Error(''), { text: '' }) },
        ],
        ANSWER_CHANGED: [
          { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: 'Ada Lovelace' },
          { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: '   ' },
          { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: LONG },
          // 11 left, then 10: the counter warns at 10 or fewer.
          { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: 'z'.repeat(289) },
          { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: 'z'.repeat(290) },
          { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: TOO_LONG },
          { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: true },
          { type: 'ANSWER_CHANGED', key: 't11-q2-c0', value: true },
          { type: 'ANSWER_CHANGED', key: 't11-q2-c0', value: 'yes' },
          { type: 'ANSWER_CHANGED', key: 't12-q4-c0', value: true },
          { type: 'ANSWER_CHANGED', key: 'basket-q-3', value: 'Radio' },
          { type: 'ANSWER_CHANGED', key: 'basket-q-3', value: 'Television' },
          { type: 'ANSWER_CHANGED', key: 'basket-q-3', value: '' },
        ],
        STEP_CHOSEN: [-1, 0, 1, 1.5, 2, 3].map((index) => ({ type: 'STEP_CHOSEN', index })),
      },
      // What decides the chart's choices: the step shown, the steps seen and which mandatory answers are there.
      serializeState: (s) => {
        const c = s.context;
        const answeredKeys = ['t11-q1-c0', 'basket-q-3'].filter((k) => {
          const v = c.answers[k];
          return typeof v === 'string' && v.trim() !== '';
        });
        return JSON.stringify([s.value, c.current, c.visited, answeredKeys, c.problem !== null]);
      },
      view: (snapshot) => viewQuestions(snapshot as never),
      initial: () => ({
        view: expectedView(start),
        running: ['loadQuestions'],
        started: { loadQuestions: [{ beforeOrAfter: 'before' }] },
      }),
      oracle: ({ event, earlier }): Expectation<QuestionsView> => {
        const before = earlier.reduce((m, e) => step(m, e.event), start);
        const after = step(before, event);
        const expectation: Expectation<QuestionsView> = { view: expectedView(after), running: running(after) };
        if (after.phase === 'loading' && before.phase !== 'loading')
          expectation.started = { loadQuestions: [{ beforeOrAfter: 'before' }] };
        if (after.phase === 'saving' && before.phase !== 'saving')
          expectation.started = { saveQuestionAnswers: [payload(after)] };
        if (after.phase === 'saved') expectation.output = { kind: 'saved', beforeOrAfter: 'before' };
        return expectation;
      },
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  });

  it('serves the after-payment questions too, and sends them as such', async () => {
    const sent: unknown[] = [];
    const actor = createActor(
      questionsMachine.provide({
        actors: {
          loadQuestions: fromPromise(async (): Promise<QuestionsSource> => ({
            questions: [ACCESS],
            tickets: SOURCE.tickets,
            intro: null,
          })),
          saveQuestionAnswers: fromPromise(async ({ input }) => {
            sent.push(input);
            return { questions_set: true as const };
          }),
        },
      }),
      { input: { beforeOrAfter: 'after' } },
    ).start();
    await waitFor(actor, (s) => s.matches('answering'));
    // One ticket step with one optional question: complete once shown.
    expect(viewQuestions(actor.getSnapshot()).steps).toEqual([{ label: 'Ticket 1', current: true, complete: true }]);
    actor.send({ type: 'CONTINUE_CLICKED' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([
      { before_or_after: 'after', answers: [{ ticket_id: 11, question_id: 2, copy: 0, answer: false }] },
    ]);
    expect(actor.getSnapshot().output).toEqual({ kind: 'saved', beforeOrAfter: 'after' });
  });
});

describe('questions senders and an empty form', () => {
  it('turn each control of the screen into its event', () => {
    const sent: unknown[] = [];
    const send = questionsSenders((event) => sent.push(event));
    send.answer('t11-q1-c0', 'Ada');
    send.chooseStep(2);
    send.continueClicked();
    send.retry();
    expect(sent).toEqual([
      { type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: 'Ada' },
      { type: 'STEP_CHOSEN', index: 2 },
      { type: 'CONTINUE_CLICKED' },
      { type: 'RETRY_CLICKED' },
    ]);
  });

  it('sends no answers for a form without questions, and shows no step', async () => {
    const sent: unknown[] = [];
    const actor = createActor(
      questionsMachine.provide({
        actors: {
          loadQuestions: fromPromise(async (): Promise<QuestionsSource> => ({
            questions: [],
            tickets: SOURCE.tickets,
            intro: null,
          })),
          saveQuestionAnswers: fromPromise(async ({ input }) => {
            sent.push(input);
            return { questions_set: true as const };
          }),
        },
      }),
      { input: { beforeOrAfter: 'before' } },
    ).start();
    await waitFor(actor, (s) => s.matches('answering'));
    actor.send({ type: 'ANSWER_CHANGED', key: 't11-q1-c0', value: 'Ada' });
    expect(viewQuestions(actor.getSnapshot())).toMatchObject({
      steps: [],
      step: null,
      questions: [],
      isLastStep: false,
      canSubmit: false,
    });
    actor.send({ type: 'CONTINUE_CLICKED' });
    await waitFor(actor, (s) => s.status === 'done');
    expect(sent).toEqual([{ before_or_after: 'before', answers: [] }]);
  });
});

describe('the steps of the form (spec 001 §2, §3)', () => {
  const q = (fields: Partial<Question> & Pick<Question, 'id' | 'ticket_id'>): Question => ({
    question: `Question ${fields.id}`,
    type: 'text',
    mandatory: '0',
    once_per_checkout: '0',
    osq_id: null,
    prepopulated_array: [],
    ...fields,
  });
  const tickets = [
    { ticket_id: 11, qty: 2, event_name: 'Lantern Trail', ticket_name: 'Adult' },
    { ticket_id: 12, qty: 1, event_name: 'Lantern Trail', ticket_name: 'Child' },
    { ticket_id: 13, qty: 3, event_name: 'Lantern Trail', ticket_name: 'Parking' },
  ];

  it('asks per-ticket questions on every copy of the ticket, and once-per-checkout ones once, on the Basket step', () => {
    const steps = buildSteps({
      tickets,
      questions: [
        q({ id: 1, ticket_id: 11 }),
        q({ id: 2, ticket_id: 12 }),
        // One organiser question on two ticket types is asked once.
        q({ id: 3, ticket_id: 11, once_per_checkout: '1', osq_id: 90 }),
        q({ id: 4, ticket_id: 12, once_per_checkout: '1', osq_id: 90 }),
        q({ id: 5, ticket_id: 12, once_per_checkout: '1' }),
        // A question about a ticket that is not in the basket is not asked.
        q({ id: 6, ticket_id: 99 }),
      ],
    });
    expect(steps.map((s) => [s.label, s.heading, s.questions.map((x) => x.key)])).toEqual([
      ['Ticket 1', 'Lantern Trail: Adult, ticket 1 of 2', ['t11-q1-c0']],
      ['Ticket 2', 'Lantern Trail: Adult, ticket 2 of 2', ['t11-q1-c1']],
      ['Ticket 3', 'Lantern Trail: Child', ['t12-q2-c0']],
      ['Basket', 'Your whole order', ['basket-osq-90', 'basket-q-5']],
    ]);
    expect(
      answerEntries(steps, { 't11-q1-c1': 'Grace', 'basket-osq-90': 'Radio' }).map((e) => [
        e.ticket_id,
        e.question_id,
        e.copy,
        e.answer,
      ]),
    ).toEqual([
      [11, 1, 0, ''],
      [11, 1, 1, 'Grace'],
      [12, 2, 0, ''],
      [11, 3, null, 'Radio'],
      [12, 4, null, 'Radio'],
      [12, 5, null, ''],
    ]);
  });

  it('has no Basket step without once-per-checkout questions', () => {
    expect(buildSteps({ tickets, questions: [q({ id: 1, ticket_id: 12 })] }).map((s) => s.label)).toEqual(['Ticket 1']);
  });
});
