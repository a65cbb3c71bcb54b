// Mutation testing of the statecharts: `npm run mutate` (scripts/mutate.ts runs this once per machine
// folder). Each mutant is a small wrong change to a machine file (a target, a guard, a string); the
// machine's own tests must notice it. Goal: at least 90 % of mutants killed in every machine file.
// Not part of `npm test`: it takes minutes.
//
// MUTATE_MACHINE names the folder under machines/ being mutated; only that folder's tests run, so a
// chart is measured by its own walk and oracle, not by a parent that happens to import it.
//
// Equivalent mutants (changes no test can observe, because the behaviour is the same), with their
// reasons. Left out of the run everywhere by scripts/strykerIgnorers.mjs:
// - `description` strings of states and transitions: documentation, never read at run time;
// - the `types` object of `setup()`: erased at run time;
// - default actor implementations that only reject with '... is provided by the app': the app and
//   every test provide the real actor with `.provide()`;
// - the names given to those stand-ins (`providedByApp.call('loadPayment')`, `.callback`, `.chart`):
//   they only word the stand-in's error, which the app and every test replace.
// Left out line by line with `// Stryker disable next-line <mutator>: <reason>` in the machine file:
// - the `actors: {}` object of a `setup()` whose actors are all provided (stepSaver, countdown,
//   reservation, basket, instalment, square, donation, giftAid) and a guard the app always provides
//   (reservation's isInAppBrowser);
// - a machine `id` that no `#id` target names (stepSaver, countdown, reservation, instalment, square,
//   seatSelection, donation, giftAid);
// - `?? ''` / `?? 'basket'` fallbacks that only satisfy the types where a guard or the state already
//   guarantees the value (stepSaver's step in flight, reservation's sitekey, redirect url, refusal
//   message and sale reference, instalment's redirect url, Square's card token, the seat hold token
//   of the add payload);
// - reservation's copyLink onError target: `copying` and `waiting` show the buyer the same screen;
// - seatSelection's `?.` on a call's error: the app's calls reject with an Error, never null;
// - seatSelection's `ticket_type_id === null` test in the seat map: no pricing is keyed by null, so
//   the lookup gives null as well.
// Survivors looked at in the step folders, left as they are:
// - instalment.rules `plan.option === null` mutated to `false`: no offered option is null, so the
//   offer test alone refuses a missing option (the null test narrows the type);
// - contract/errors messageOf's `typeof serverMessage === 'string'` mutated to `true`: the app's CallFailed carries
//   the server's words as a string or null, so a truthy one is always a string;
// Survivors looked at in the payment chart (machines/payment), left as they are:
// - `?.` and `?? ''` / `?? []` fallbacks where the state already guarantees the value: the situation
//   in every state after loading, the sign-in in its own states, the card's token while confirming,
//   the billing payload while saving it, a plan's option and card while paying by plan;
// - ternaries on a child's outcome (instalment, Square) or the card's result behind a guard that
//   already fixes its kind, and `failure.kind === 'refused'` beside `reason === 'sign_in'` (only a
//   refusal has a reason);
// - `markPaying`'s case for no method: Pay is refused while no method is chosen;
// - a lost hold's `messageOf(…, '')` fallback: the server's lost-hold refusal always has words;
// - `blocked: { description }` mutated to `{}`: the same state without its documentation.
// Survivors looked at in the root checkout (machines/checkout), left as they are:
// - `systemId` strings of the basket, reservation and step-saver children: no one looks them up,
//   so renaming them changes nothing observable (the hold's clock has none);
// - `nextNoticeId + 1` mutated to `- 1`: ids stay unique, which is all the screens rely on;
// - `{ description }`-only transitions (CHECKOUT_RELOADED while determining, captcha events ignored
//   while reserving) mutated to `{}`: the same no-op;
// - the `history: 'deep'` / `type: 'history'` strings of the captcha region: a captcha step is
//   only re-entered fresh, so shallow and deep history restore the same state;
// - `forgetCaptchaToken` mutated to `{}`: the expired and errored widget states refuse Continue,
//   and every way out of them either passes a new token or clears it;
// - the `systemId` strings of the step charts (account to orderCompleted): nothing looks them up;
// - `keepCheckout` on leaving gift_aid, ticket_questions_before, payment, awaiting_truelayer and
//   after_sale_messages mutated away: the step that follows there always applies, so the checkout
//   kept before routes the same;
// - ternaries on the reservation's outcome behind a guard that already fixes its type, the
//   `?? ''` of a refusal's message (always present), `checkout !== null` in routing (entered only
//   with a checkout kept) and a notice's `kind` comparison (no text is raised with two kinds);
// - in checkout.connect: the captcha's 'unsolved' fallback (the token is always null there) and
//   `?.` on `pastBasket` (the state always exists).
//
// Mutants of a chart that stop its module from loading (an `initial` naming no state) count as
// killed through scripts/loadFailureReporter.ts (vitest.machines.config.ts): Stryker's vitest runner
// would otherwise read a test file that cannot load as one with no tests, and the mutant as survived.
const machine = process.env.MUTATE_MACHINE;
const folder = machine ? `machines/${machine}` : 'machines';

/** The contract's logic that charts run and only their tests judge: mutated with those charts. */
const SHARED = {
  basket: ['contract/basketRules.ts'],
  payment: ['contract/errors.ts'],
  instalment: ['contract/errors.ts'],
  square: ['contract/errors.ts'],
  seatSelection: ['contract/errors.ts'],
};
const shared = machine ? (SHARED[machine] ?? []) : [...new Set(Object.values(SHARED).flat())];

/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.machines.config.ts' },
  plugins: ['@stryker-mutator/vitest-runner', './scripts/strykerIgnorers.mjs'],
  ignorers: ['ChartDocumentation'],
  mutate: [`${folder}/**/*.ts`, '!machines/**/*.test.ts', '!machines/testing/**', '!machines/charts.ts', ...shared],
  coverageAnalysis: 'perTest',
  concurrency: Number(process.env.MUTATE_CONCURRENCY ?? 2),
  timeoutMS: 60_000,
  // Stryker rewrites tsconfig.json for its sandbox with TypeScript's JS API, which the project's
  // TypeScript (7, native) does not have; Vitest reads no tsconfig, so none is named.
  tsconfigFile: 'tsconfig.stryker-none.json',
  incremental: true,
  incrementalFile: `reports/mutation/${machine ?? 'all'}.incremental.json`,
  reporters: ['progress-append-only', 'clear-text', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${machine ?? 'all'}.json` },
  htmlReporter: { fileName: `reports/mutation/${machine ?? 'all'}.html` },
  clearTextReporter: { allowColor: false, logTests: false, reportMutants: false, reportScoreTable: true },
  tempDirName: `.stryker-tmp/${machine ?? 'all'}`,
  cleanTempDir: 'always',
  thresholds: { high: 90, low: 85, break: null },
};
