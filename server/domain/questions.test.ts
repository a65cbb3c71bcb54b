/**
 * Ticket questions through the HTTP calls (spec 001 §3 Question, §4 Questions, §5, §7
 * save_question_answers with a JSON body, reply questions_set): the checkout's questions from the
 * seed, answers saved, and every refusal a clear 4xx that saves nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { sales } from '../db/schema.ts';
import { completeSale } from './completeSale.ts';
import { savedAnswers } from './questions.ts';
import { drivers, openWorld, Visitor, type TestWorld } from '../test/harness.ts';
import type { AnswerEntry, Checkout } from '../../contract/index.ts';

const PATH = '/ajax/checkout/checkout/save_question_answers/';

describe.each(drivers)('ticket questions on %s', (driver) => {
  let w: TestWorld;
  beforeAll(async () => {
    w = await openWorld(driver);
  });
  afterAll(async () => w?.close());

  const save = (v: Visitor, body: unknown) =>
    v.request({
      method: 'POST',
      url: PATH,
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json' },
    });

  async function saleIdOf(checkout: Checkout): Promise<string> {
    const [row] = await w.database.db
      .select({ id: sales.id })
      .from(sales)
      .where(eq(sales.reference, checkout.sale_reference!));
    return row!.id;
  }

  /** A buyer holding two adult and one child Lantern Trail tickets; each buyer on an address of its own, as the held-ticket cap is per buyer. */
  let buyers = 0;
  async function reservedBuyer() {
    buyers += 1;
    const v = new Visitor(w.app, {}, `198.51.100.${buyers}`);
    await v.add({ [w.demo.tickets.lanternEarlyAdult]: 2, [w.demo.tickets.lanternLateChild]: 1 });
    expect((await v.json('reserveTickets')).reserved).toBe(true);
    const checkout = await v.checkout();
    return { v, checkout, saleId: await saleIdOf(checkout) };
  }

  const q = w_q();
  /** The seeded question ids (per ticket type, in ticket order: adults early/late, children early/late). */
  function w_q() {
    return {
      name: (i: number) => w.demo.questions.before.name[i]!,
      stepFree: (i: number) => w.demo.questions.before.stepFree[i]!,
      lantern: (i: number) => w.demo.questions.before.lanternChoice[i]!,
      heard: (i: number) => w.demo.questions.before.heardFrom[i]!,
      paths: (i: number) => w.demo.questions.before.paths[i]!,
    };
  }

  /** A complete set of before-payment answers for reservedBuyer's basket. */
  function completeAnswers(): AnswerEntry[] {
    const adult = w.demo.tickets.lanternEarlyAdult;
    const child = w.demo.tickets.lanternLateChild;
    return [
      { ticket_id: adult, question_id: q.name(0), copy: 0, answer: 'Ada Lovelace' },
      { ticket_id: adult, question_id: q.name(0), copy: 1, answer: 'Charles Babbage' },
      { ticket_id: child, question_id: q.name(3), copy: 0, answer: 'Annabella' },
      { ticket_id: adult, question_id: q.stepFree(0), copy: 0, answer: false },
      { ticket_id: adult, question_id: q.stepFree(0), copy: 1, answer: true },
      { ticket_id: child, question_id: q.stepFree(3), copy: 0, answer: false },
      { ticket_id: adult, question_id: q.lantern(0), copy: 0, answer: 'Fox' },
      { ticket_id: adult, question_id: q.lantern(0), copy: 1, answer: 'Crescent moon' },
      { ticket_id: adult, question_id: q.heard(0), copy: null, answer: 'Social media' },
      { ticket_id: child, question_id: q.heard(3), copy: null, answer: 'Social media' },
      { ticket_id: adult, question_id: q.paths(0), copy: null, answer: true },
      { ticket_id: child, question_id: q.paths(3), copy: null, answer: true },
    ];
  }

  it('puts the seeded questions of every kind, before and after payment, in the checkout, with the organiser’s intro', async () => {
    const { checkout } = await reservedBuyer();
    const before = checkout.before_payment_questions;
    expect(new Set(before.map((x) => x.type))).toEqual(new Set(['text', 'checkbox', 'dropdown']));
    expect(new Set(before.map((x) => x.once_per_checkout))).toEqual(new Set(['0', '1']));
    expect(
      before.every((x) => [w.demo.tickets.lanternEarlyAdult, w.demo.tickets.lanternLateChild].includes(x.ticket_id)),
    ).toBe(true);
    // The lantern choice is asked of adults only.
    expect(
      before
        .filter((x) => x.question === 'Which lantern would you like to carry?')
        .map((x) => [x.ticket_id, x.mandatory, x.prepopulated_array]),
    ).toEqual([[w.demo.tickets.lanternEarlyAdult, '1', ['Paper star', 'Crescent moon', 'Fox', 'No lantern, thanks']]]);
    const after = checkout.after_payment_questions;
    expect(new Set(after.map((x) => x.type))).toEqual(new Set(['text', 'checkbox', 'dropdown']));
    expect(new Set(after.map((x) => x.once_per_checkout))).toEqual(new Set(['0', '1']));
    expect(checkout.events[0]!.questions_intro).toMatch(/^Ashcombe’s rangers/);

    // An event's own intro; a basket without questions has none.
    const jam = new Visitor(w.app);
    await jam.add({ [w.demo.questions.improvSeat]: 1 });
    const jamCheckout = await jam.checkout();
    expect(jamCheckout.events[0]!.questions_intro).toMatch(/^Tonight’s scenes/);
    expect(jamCheckout.before_payment_questions.map((x) => [x.type, x.once_per_checkout])).toEqual([['text', '1']]);
    const runner = new Visitor(w.app);
    await runner.add({ [w.demo.tickets.trail10k]: 1 });
    const plain = await runner.checkout();
    expect([plain.before_payment_questions, plain.after_payment_questions, plain.events[0]!.questions_intro]).toEqual([
      [],
      [],
      null,
    ]);
  });

  it('saves the answers from a JSON body and replies questions_set; a second save replaces the first', async () => {
    const { v, saleId } = await reservedBuyer();
    const res = await save(v, { answers: completeAnswers(), before_or_after: 'before' });
    expect([res.statusCode, res.json()]).toEqual([200, { questions_set: true }]);
    let rows = await savedAnswers(w.database.db, saleId, 'before');
    expect(rows.map((r) => [r.questionId, r.copy, r.answer])).toContainEqual([q.name(0), 1, 'Charles Babbage']);
    expect(rows.map((r) => [r.questionId, r.copy, r.answer])).toContainEqual([q.stepFree(0), 1, true]);
    expect(rows).toHaveLength(12);

    const again = completeAnswers().map((a) => (a.question_id === q.name(3) ? { ...a, answer: 'Ada Byron' } : a));
    expect((await save(v, { answers: again, before_or_after: 'before' })).statusCode).toBe(200);
    rows = await savedAnswers(w.database.db, saleId, 'before');
    expect(rows).toHaveLength(12);
    expect(rows.find((r) => r.questionId === q.name(3))!.answer).toBe('Ada Byron');
  });

  /** Each refusal: a 4xx with a message a person can read, and nothing saved. */
  async function refused(body: unknown, status: number, error: string | RegExp) {
    const { v, saleId } = await reservedBuyer();
    const res = await save(v, body);
    expect(res.statusCode).toBe(status);
    const message = (res.json() as { error: string }).error;
    if (typeof error === 'string') expect(message).toBe(error);
    else expect(message).toMatch(error);
    expect(await savedAnswers(w.database.db, saleId, 'before')).toEqual([]);
  }

  it('refuses a missing mandatory answer, on any copy, by name', async () => {
    await refused(
      {
        answers: completeAnswers().filter((a) => !(a.question_id === q.name(0) && a.copy === 1)),
        before_or_after: 'before',
      },
      400,
      "Please enter your answer to 'Name of the person using this ticket'",
    );
    await refused(
      {
        answers: completeAnswers().map((a) => (a.question_id === q.lantern(0) ? { ...a, answer: '' } : a)),
        before_or_after: 'before',
      },
      400,
      "Please enter your answer to 'Which lantern would you like to carry?'",
    );
    await refused(
      {
        answers: completeAnswers().map((a) => (a.question_id === q.paths(3) ? { ...a, answer: false } : a)),
        before_or_after: 'before',
      },
      400,
      "Please enter your answer to 'We will keep to the lit paths and follow the rangers’ directions'",
    );
    await refused(
      {
        answers: completeAnswers().map((a) => (a.question_id === q.name(3) ? { ...a, answer: '   ' } : a)),
        before_or_after: 'before',
      },
      400,
      "Please enter your answer to 'Name of the person using this ticket'",
    );
  });

  it('refuses a text answer over 300 characters, and accepts one of exactly 300', async () => {
    const withName = (answer: string) =>
      completeAnswers().map((a) => (a.question_id === q.name(0) && a.copy === 0 ? { ...a, answer } : a));
    await refused(
      { answers: withName('x'.repeat(301)), before_or_after: 'before' },
      400,
      "Your answer to 'Name of the person using this ticket' is longer than 300 characters",
    );
    await refused(
      { answers: withName('Ada\u0000'), before_or_after: 'before' },
      400,
      /contains characters that cannot be saved/,
    );
    const { v } = await reservedBuyer();
    expect((await save(v, { answers: withName('é'.repeat(300)), before_or_after: 'before' })).statusCode).toBe(200);
  });

  it('refuses a dropdown answer that is not one of its options, and an answer of the wrong kind', async () => {
    await refused(
      {
        answers: completeAnswers().map((a) =>
          a.question_id === q.lantern(0) && a.copy === 0 ? { ...a, answer: 'Dragon' } : a,
        ),
        before_or_after: 'before',
      },
      400,
      "Choose one of the options for 'Which lantern would you like to carry?'",
    );
    await refused(
      {
        answers: completeAnswers().map((a) =>
          a.question_id === q.stepFree(0) && a.copy === 0 ? { ...a, answer: 'yes' } : a,
        ),
        before_or_after: 'before',
      },
      400,
      "Your answer to 'This person needs step-free paths' is not the kind of answer it asks for",
    );
  });

  it('accepts answers only for the sale’s own tickets and copies, each once', async () => {
    const notYours = 'Those answers are not about the tickets in your basket';
    const adult = w.demo.tickets.lanternEarlyAdult;
    // A ticket type that is not in the basket (the late adult's own copy of the name question).
    await refused(
      {
        answers: [
          ...completeAnswers(),
          { ticket_id: w.demo.tickets.lanternLateAdult, question_id: q.name(1), copy: 0, answer: 'Eve' },
        ],
        before_or_after: 'before',
      },
      400,
      notYours,
    );
    // A question of another ticket type, a copy beyond the quantity, a per-ticket question without its copy.
    await refused(
      {
        answers: [...completeAnswers(), { ticket_id: adult, question_id: q.name(3), copy: 0, answer: 'Eve' }],
        before_or_after: 'before',
      },
      400,
      notYours,
    );
    await refused(
      {
        answers: [...completeAnswers(), { ticket_id: adult, question_id: q.name(0), copy: 2, answer: 'Eve' }],
        before_or_after: 'before',
      },
      400,
      notYours,
    );
    await refused(
      {
        answers: [...completeAnswers(), { ticket_id: adult, question_id: q.heard(0), copy: 0, answer: 'Radio' }],
        before_or_after: 'before',
      },
      400,
      notYours,
    );
    // An after-payment question in a before-payment save.
    await refused(
      {
        answers: [
          ...completeAnswers(),
          { ticket_id: adult, question_id: w.demo.questions.after.arrival[0]!, copy: null, answer: 'Estate car park' },
        ],
        before_or_after: 'before',
      },
      400,
      notYours,
    );
    await refused(
      { answers: [...completeAnswers(), completeAnswers()[0]!], before_or_after: 'before' },
      400,
      'Each question can be answered once per ticket',
    );
  });

  it('refuses a body that is not the contract’s, with the field named', async () => {
    await refused({ answers: completeAnswers(), before_or_after: 'during' }, 400, /^Invalid before_or_after/);
    await refused({ answers: 'all of them', before_or_after: 'before' }, 400, /^Invalid answers/);
    await refused(
      { answers: [{ ...completeAnswers()[0], copy: -1 }], before_or_after: 'before' },
      400,
      /^Invalid answers\.0\.copy/,
    );
  });

  it('saves before payment only while the tickets are held, and after payment only once paid', async () => {
    const { v, saleId } = await reservedBuyer();
    const afterAnswers = (checkout: Checkout): AnswerEntry[] =>
      checkout.after_payment_questions.flatMap((x): AnswerEntry[] =>
        x.once_per_checkout === '1'
          ? [
              {
                ticket_id: x.ticket_id,
                question_id: x.id,
                copy: null,
                answer: x.type === 'checkbox' ? true : x.type === 'dropdown' ? 'Estate car park' : '',
              },
            ]
          : Array.from({ length: checkout.tickets.find((t) => t.ticket_id === x.ticket_id)!.qty }, (_, copy) => ({
              ticket_id: x.ticket_id,
              question_id: x.id,
              copy,
              answer: 'Asthma inhaler in coat pocket',
            })),
      );
    const checkout = await v.checkout();
    let res = await save(v, { answers: afterAnswers(checkout), before_or_after: 'after' });
    expect([res.statusCode, res.json()]).toEqual([
      409,
      { error: 'These questions can be answered once your order is paid' },
    ]);

    await w.database.db.transaction((tx) => completeSale(tx, saleId, w.clock.now));
    res = await save(v, { answers: afterAnswers(checkout), before_or_after: 'after' });
    expect([res.statusCode, res.json()]).toEqual([200, { questions_set: true }]);
    expect((await savedAnswers(w.database.db, saleId, 'after')).length).toBe(afterAnswers(checkout).length);
    res = await save(v, { answers: completeAnswers(), before_or_after: 'before' });
    expect(res.statusCode).toBe(409);

    // A hold that has run out, and a visitor without a basket.
    const late = await reservedBuyer();
    w.clock.advance(60 * 60_000);
    try {
      res = await save(late.v, { answers: completeAnswers(), before_or_after: 'before' });
      expect([res.statusCode, res.json()]).toEqual([
        409,
        {
          error: 'Your tickets are no longer held for you, so your answers cannot be saved. Please reserve them again.',
        },
      ]);
    } finally {
      w.clock.advance(-60 * 60_000);
    }
    res = await save(new Visitor(w.app), { answers: [], before_or_after: 'before' });
    expect(res.statusCode).toBe(409);
  });
});
