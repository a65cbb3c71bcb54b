/**
 * The checkout flow (spec 000 §4, spec 001 §4): one state per step of the contract's step table
 * (`contract/steps.ts`), each invoking its own chart, and one `routing` state, a row per step, that
 * picks the next step with the rules of `nextStep` (the step being left, the checkout just read;
 * the flow's order and when each step applies are the table's). A step whose chart finishing
 * completes it is made from its row (`stepState`); the steps with more to them are written out. Child actors: `stepSaver` lives as
 * long as the checkout, and `countdown` (the hold's clock) from the first hold on; every step's
 * chart (`basket`, `reservation`, `account`, ..., `orderCompleted`) lives while the buyer is on
 * that step.
 *
 * A step the buyer completes reads the checkout afresh in its own `advancing` state (a failed read
 * keeps the buyer on the step), then goes to `routing`: each is `ADVANCING` (`ADVANCING_TO_PAID` on
 * the payment steps); the reserve and captcha steps share the reservation's outcomes
 * (`reservationOutcomes`).
 *
 * Reservation failures: a failed request from the reserve step (reached with 'Reserve Basket', or
 * resumed) shows MESSAGES.unableToReserve; one from the captcha step's 'Continue' button shows the
 * button wording MESSAGES.unableToReserveFromButton.
 */
import { checkoutSetup, initialCheckoutContext, type CheckoutContext } from './checkout.setup';
import { MESSAGES } from '../../contract/messages/checkout';
import type { ReservationOutcome } from '../reservation/reservation.types';
import { STEP_CHARTS, STEP_TABLE, stepRow, type Step, type StepCharts } from '../../contract/steps';

/** Entering a step: the server is told straight away (of the step left, too: `saveStep`), and the buyer is on it. */
function enterStep<const S extends Step>(step: S) {
  return [
    { type: 'saveStep', params: { step } },
    { type: 'rememberStep', params: { step } },
  ] as const;
}

/** A step's chart ended because the server no longer holds the tickets (its `holdLost` output). */
const HOLD_LOST = {
  guard: 'holdLost',
  target: '#checkout.basket',
  actions: ['notifyServerReason', 'stopCountdown', 'reloadCheckout'],
  description: 'The server no longer holds the tickets: back to the basket with its reason.',
} as const;

/** A failed read of the checkout after a step: the buyer stays on the step (its `active` state). */
const STAY_ON_FAILED_READ = {
  target: 'active',
  actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToGetCheckout } },
  description: 'The buyer stays on the step and may press Continue again.',
} as const;

/** A completed step reads the checkout afresh, then goes to `routing`. */
const ADVANCING = {
  tags: ['advancing'],
  invoke: {
    src: 'loadCheckout',
    id: 'loadCheckout',
    onDone: { target: '#checkout.routing', actions: 'keepCheckout' },
    onError: STAY_ON_FAILED_READ,
  },
} as const;

/** A payment step's fresh read: as `ADVANCING`, and a complete payment stops the countdown. */
const ADVANCING_TO_PAID = {
  tags: ['advancing'],
  invoke: {
    src: 'loadCheckout',
    id: 'loadCheckout',
    onDone: [
      {
        guard: 'paymentComplete',
        target: '#checkout.routing',
        actions: ['keepCheckout', 'markPaid', 'stopCountdown'],
        description: 'Payment is complete: the countdown stops.',
      },
      { target: '#checkout.routing', actions: 'keepCheckout' },
    ],
    onError: STAY_ON_FAILED_READ,
  },
} as const;

/**
 * What the reservation's chart decided, from the reserve step or the captcha's 'Continue': the two
 * differ only in the words of a failed request (`failedText`).
 */
function reservationOutcomes(failedText: string) {
  return [
    {
      guard: { type: 'reservationIs', params: { outcome: 'reserved' } },
      target: '#checkout.routing',
      actions: ['keepReservedCheckout', 'acceptReservation', 'startClock', 'startReservedCountdown'],
      description: 'Reserved: the hold starts, and the next step follows from the reserved checkout.',
    },
    {
      guard: { type: 'reservationIs', params: { outcome: 'captcha' } },
      target: '#checkout.pastBasket.captcha.unsolved',
      actions: ['keepReservationSitekey', 'freshCaptchaWidget'],
      description: 'The server wants a captcha (again): a fresh widget to solve.',
    },
    {
      guard: { type: 'reservationIs', params: { outcome: 'redirect' } },
      actions: {
        type: 'navigate',
        params: ({ event }: { event: { output: ReservationOutcome } }) => ({
          url: event.output.kind === 'redirect' ? event.output.url : '/',
        }),
      },
      description: 'The browser leaves for the address the server gave.',
    },
    {
      guard: { type: 'reservationIs', params: { outcome: 'error' } },
      target: '#checkout.basket',
      actions: ['notifyServerReason', 'reloadCheckout'],
      description: 'The server’s reason is shown as a warning and the basket is reloaded.',
    },
    {
      guard: { type: 'reservationIs', params: { outcome: 'unknown' } },
      target: '#checkout.basket',
      actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unknownReservationError } },
    },
    {
      target: '#checkout.basket',
      actions: { type: 'notify', params: { kind: 'error', text: failedText } },
      description: 'The request failed.',
    },
  ] as const;
}

/** A step with a chart of its own (the step table's `chart` column). */
type ChartedStep = keyof StepCharts;

/**
 * The mark on a state whose invoked child is the chart of the step on screen (`id`, the child's id):
 * the screens render that child (`stepChild` in checkout.connect.ts), whatever the root's own
 * children are.
 */
const stepChildMark = <const Id extends string>(id: Id) => ({ stepChild: id }) as const;

/**
 * A step's state made from its row of the step table: the buyer enters it (`enterStep`), its chart
 * runs (invoked by the table's name for it, with `input` if the chart takes one), and its chart
 * finishing completes the step, read afresh in `advancing` and on to `routing`. A step before the
 * payment offers 'Edit basket' (the `basketEditable` tag).
 */
function stepState<const S extends ChartedStep, const I = undefined>(step: S, input?: I) {
  const chart = STEP_CHARTS[step];
  const row = stepRow(step)!;
  return {
    ...(row.holdsTickets && row.beforePayment ? { tags: ['basketEditable'] as const } : {}),
    entry: enterStep(step),
    initial: 'active',
    states: {
      active: {
        meta: stepChildMark(chart),
        invoke: {
          src: chart,
          id: chart,
          systemId: chart,
          // A chart without input is invoked without one (typed as its `undefined`).
          ...((input === undefined ? {} : { input }) as { input: I }),
          onDone: { target: 'advancing' },
        },
      },
      advancing: ADVANCING,
    },
  } as const;
}

/**
 * The states of the steps past the basket, in the step table's order: each step written out in
 * `written`, and every other step with a chart of its own made from its row (`stepState`), so a
 * step whose chart finishing completes it is its row in the table alone.
 */
function pastBasketSteps<const W extends Partial<Record<Step, object>>>(written: W) {
  const made = STEP_TABLE.filter((row) => !row.outsideFlow && row.step !== 'basket').map((row) => {
    const state = (written as Partial<Record<Step, object>>)[row.step];
    if (!state && !row.chart) throw new Error(`The ${row.step} step has no chart of its own: its state is written out`);
    return [row.step, state ?? stepState(row.step as ChartedStep)] as const;
  });
  return Object.fromEntries(made) as W & { [S in Exclude<ChartedStep, keyof W>]: ReturnType<typeof stepState<S>> };
}

/**
 * The `routing` state's rows: one per step of the table (but determining), each to the step's own
 * state when `nextStep` picks it.
 */
function routingRows() {
  return STEP_TABLE.filter((row) => !row.outsideFlow).map((row) => ({
    guard: { type: 'nextStepIs', params: { step: row.step } } as const,
    target: row.step === 'basket' ? '#checkout.basket' : `#checkout.pastBasket.${row.step}`,
  }));
}

export const checkoutMachine = checkoutSetup.createMachine({
  id: 'checkout',
  description: 'The ticket checkout, from the basket to the completed order.',
  context: initialCheckoutContext,
  entry: ['spawnStepSaver'],
  initial: 'determining',
  on: {
    TAB_VISIBLE: { actions: 'reloadCheckout', description: 'The tab is visible again: re-read the checkout.' },
    CHECKOUT_RELOADED: { description: 'The screens show the fresh checkout; the flow stays where it is.' },
    NOTICE_RAISED: { actions: 'keepChildNotice' },
    NOTICE_DISMISSED: { actions: 'dismissNotice' },
    STEP_SAVED: {
      guard: 'replyHoldsTickets',
      actions: 'syncCountdown',
      description: 'The hold’s time, from a save of the step the buyer is on; a step before the hold says nothing.',
    },
    STEP_SAVE_FAILED: { actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToSaveStep } } },
  },
  states: {
    determining: {
      description: 'Determining checkout progress: the server says which step the buyer is on.',
      initial: 'loading',
      states: {
        loading: {
          tags: ['determining'],
          invoke: {
            src: 'loadCheckout',
            id: 'loadCheckout',
            onDone: [
              {
                guard: { type: 'resumesAt', params: { steps: ['basket'] } },
                target: '#checkout.routing',
                actions: 'keepCheckout',
              },
              {
                guard: { type: 'resumesAt', params: { steps: ['reserve'] } },
                target: 'loadingStepCharts',
                actions: 'keepCheckout',
              },
              {
                guard: { type: 'resumesAt', params: { steps: ['captcha'] } },
                target: 'loadingStepCharts',
                actions: ['keepCheckout', 'keepCheckoutSitekey', 'freshCaptchaWidget'],
                description: 'Resumed at the captcha: a fresh widget to solve.',
              },
              {
                target: 'loadingStepCharts',
                actions: ['keepCheckout', 'resumeHold'],
                description: 'Resumed past the reservation: the hold goes on, unless paid.',
              },
            ],
            onError: {
              target: 'failed',
              actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToGetCheckout } },
            },
          },
        },
        loadingStepCharts: {
          tags: ['determining'],
          description:
            'Resumed past the basket: the later steps’ charts and the hold’s clock are made ready before routing to the step.',
          invoke: {
            src: 'loadStepCharts',
            id: 'loadStepCharts',
            onDone: [
              {
                guard: 'resumesHold',
                target: '#checkout.routing',
                actions: ['startClock', 'resumeCountdown'],
                description: 'The hold’s clock goes on from the server’s figure (stopped if paid).',
              },
              { target: '#checkout.routing' },
            ],
            onError: {
              target: 'failed',
              actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToGetCheckout } },
            },
          },
        },
        failed: { on: { RETRY_CLICKED: { target: 'loading' } } },
      },
    },
    basket: {
      entry: enterStep('basket'),
      meta: stepChildMark('basket'),
      invoke: { src: 'basket', id: 'basket', systemId: 'basket' },
      initial: 'idle',
      states: {
        idle: { on: { RESERVE_CLICKED: { target: 'waiting' } } },
        waiting: {
          tags: ['reserving'],
          description: 'Reserve Basket was pressed; the reserve step follows after reserveDelay.',
          after: { reserveDelay: { target: 'preparing' } },
        },
        preparing: {
          tags: ['reserving'],
          description:
            'The reservation’s chart is made ready, with the later steps’ charts and the hold’s clock (the app loads them, if it has not yet).',
          invoke: {
            src: 'loadStepCharts',
            id: 'loadStepCharts',
            onDone: { target: '#checkout.pastBasket.reserve' },
            onError: {
              target: 'idle',
              actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToReserve } },
            },
          },
        },
      },
    },
    pastBasket: {
      description: 'Every step after the basket. Edit basket and the hold running out lead back to it.',
      initial: 'reserve',
      on: {
        EDIT_BASKET_CONFIRMED: {
          guard: 'notPaid',
          target: '#checkout.editingBasket',
          description: 'Refused once the payment is complete.',
        },
        CHECKOUT_RELOADED: {
          guard: 'saleEndedElsewhere',
          target: '#checkout.basket',
          actions: 'stopCountdown',
          description:
            'The sale was ended elsewhere (another tab): the flow follows the server, without the expiry message.',
        },
        COUNTDOWN_EXPIRED: {
          target: '#checkout.basket',
          actions: ['markExpired', 'reloadCheckout'],
          description: 'Your checkout time expired: back to the basket, which is reloaded.',
        },
      },
      states: {
        history: { type: 'history', history: 'deep' },
        ...pastBasketSteps({
          captcha: {
            entry: enterStep('captcha'),
            initial: 'unsolved',
            on: {
              CAPTCHA_PASSED: { target: '.passed', actions: 'keepCaptchaToken' },
              CAPTCHA_EXPIRED: { target: '.expired', actions: 'forgetCaptchaToken' },
              CAPTCHA_ERRORED: { target: '.errored', actions: 'keepCaptchaError' },
            },
            states: {
              unsolved: {},
              passed: { on: { CAPTCHA_CONTINUE_CLICKED: { target: 'reserving' } } },
              expired: {},
              errored: {},
              reserving: {
                tags: ['reserving'],
                description: 'Reserving with the captcha token; the widget is ignored until the answer.',
                meta: stepChildMark('reservation'),
                invoke: {
                  src: 'reservation',
                  id: 'reservation',
                  systemId: 'reservation',
                  input: ({ context }: { context: CheckoutContext }) =>
                    context.captchaToken ? { captchaToken: context.captchaToken } : {},
                  onDone: reservationOutcomes(MESSAGES.unableToReserveFromButton),
                  onError: {
                    target: '#checkout.basket',
                    actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToReserveFromButton } },
                  },
                },
                on: {
                  CAPTCHA_PASSED: { description: 'Ignored while reserving.' },
                  CAPTCHA_EXPIRED: { description: 'Ignored while reserving.' },
                  CAPTCHA_ERRORED: { description: 'Ignored while reserving.' },
                  COPY_LINK_CLICKED: { actions: 'forwardToReservation' },
                  WHY_TOGGLED: { actions: 'forwardToReservation' },
                },
              },
            },
          },
          reserve: {
            description: 'Reserving tickets.',
            tags: ['reserving'],
            entry: enterStep('reserve'),
            meta: stepChildMark('reservation'),
            invoke: {
              src: 'reservation',
              id: 'reservation',
              systemId: 'reservation',
              input: {},
              onDone: reservationOutcomes(MESSAGES.unableToReserve),
              onError: {
                target: '#checkout.basket',
                actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToReserve } },
              },
            },
            on: {
              COPY_LINK_CLICKED: { actions: 'forwardToReservation' },
              WHY_TOGGLED: { actions: 'forwardToReservation' },
            },
          },
          login: {
            tags: ['basketEditable'],
            entry: enterStep('login'),
            initial: 'active',
            states: {
              active: {
                meta: stepChildMark('account'),
                invoke: {
                  src: 'account',
                  id: 'account',
                  systemId: 'account',
                  onDone: [HOLD_LOST, { target: 'advancing' }],
                },
              },
              advancing: ADVANCING,
            },
          },
          delivery_address: stepState('delivery_address', { purpose: 'delivery' }),
          ticket_questions_before: stepState('ticket_questions_before', { beforeOrAfter: 'before' }),
          payment: {
            tags: ['basketEditable'],
            entry: enterStep('payment'),
            initial: 'active',
            states: {
              active: {
                on: {
                  CHECKOUT_RELOADED: [
                    {
                      guard: 'paidElsewhere',
                      target: 'advancing',
                      description:
                        'Paid in another tab: the step is left as if paid here, so Pay is no longer offered.',
                    },
                    {
                      guard: 'payingElsewhere',
                      actions: 'holdForPayment',
                      description:
                        'A payment started in another tab: the clock says the tickets are held until it finishes, as a reload would.',
                    },
                  ],
                },
                meta: stepChildMark('payment'),
                invoke: {
                  src: 'payment',
                  id: 'payment',
                  systemId: 'payment',
                  onDone: [HOLD_LOST, { target: 'advancing' }],
                },
              },
              advancing: ADVANCING_TO_PAID,
            },
          },
          awaiting_truelayer: {
            description: 'Back from the bank: its chart polls the status.',
            entry: enterStep('awaiting_truelayer'),
            initial: 'active',
            on: { COUNTDOWN_EXPIRED: { description: 'The hold no longer matters on this step.' } },
            states: {
              active: {
                meta: stepChildMark('bankTransfer'),
                invoke: {
                  src: 'bankTransfer',
                  id: 'bankTransfer',
                  systemId: 'bankTransfer',
                  onDone: [
                    {
                      ...HOLD_LOST,
                      description:
                        'The payment failed and the checkout time expired: back to the basket with the reason.',
                    },
                    {
                      guard: 'changesMethod',
                      target: '#checkout.pastBasket.payment',
                      description: 'Try a different payment method.',
                    },
                    { target: 'advancing' },
                  ],
                },
              },
              advancing: ADVANCING_TO_PAID,
            },
          },
          ticket_questions_after: stepState('ticket_questions_after', { beforeOrAfter: 'after' }),
          after_sale_messages: {
            entry: enterStep('after_sale_messages'),
            initial: 'active',
            on: { COUNTDOWN_EXPIRED: { description: 'The hold no longer matters on this step.' } },
            states: {
              active: { on: { STEP_COMPLETED: { target: 'advancing' } } },
              advancing: ADVANCING,
            },
          },
          waiver: {
            entry: enterStep('waiver'),
            initial: 'active',
            states: {
              active: {
                meta: stepChildMark('waiver'),
                invoke: { src: 'waiver', id: 'waiver', systemId: 'waiver' },
                on: { STEP_COMPLETED: { target: 'advancing' } },
              },
              advancing: ADVANCING,
            },
          },
          order_completed: {
            entry: enterStep('order_completed'),
            meta: stepChildMark('orderCompleted'),
            invoke: { src: 'orderCompleted', id: 'orderCompleted', systemId: 'orderCompleted' },
            on: { COUNTDOWN_EXPIRED: { description: 'The hold no longer matters on this step.' } },
          },
        }),
      },
    },
    routing: {
      description: 'The next step, by the rules of nextStep: from the step being left, on the checkout just read.',
      always: routingRows(),
    },
    editingBasket: {
      tags: ['editingBasket'],
      description: 'Edit basket: the sale is destroyed before returning to the basket.',
      invoke: {
        src: 'destroySale',
        id: 'destroySale',
        onDone: { target: 'basket', actions: ['reloadCheckout', 'stopCountdown'] },
        onError: {
          target: '#checkout.pastBasket.history',
          actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToEditBasket } },
          description: 'Back to where the buyer was.',
        },
      },
    },
  },
});
