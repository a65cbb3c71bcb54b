/**
 * The checkout flow (spec 000 §4, spec 001 §4): one state per step of the spec, with the step
 * order as guarded transitions evaluated by `nextStep`. Child actors: `countdown` and `stepSaver`
 * live as long as the checkout; `basket` lives on the basket step; `reservation` while reserving.
 *
 * Reservation failures: a failed request from the reserve step (reached with 'Reserve Basket', or
 * resumed) shows MESSAGES.unableToReserve; one from the captcha step's 'Continue' button shows the
 * button wording MESSAGES.unableToReserveFromButton.
 */
import { checkoutSetup, initialCheckoutContext } from './checkout.setup';
import type { Checkout, ReservationOutcome, Step } from './checkout.types';
import { STEPS } from '../../contract/steps';
import { MESSAGES } from './checkout.messages';
import type { AccountOutcome } from '../account/account.types';
import type { PaymentOutcome } from '../payment/payment.types';
import type { BankTransferOutcome } from '../bankTransfer/bankTransfer.machine';
import { AFTER_RESERVATION, NEXT_STEP_TARGETS, type AdvancingStep } from './nextStep';

/** The done event of an invoked call, with the output the actor is declared to give. */
type Done<T> = { event: { output: T } };

/**
 * Params made of fixed values and the call's output. The fixed part is kept as `label`, so the
 * generated charts still read 'isNextStep login to payment'.
 */
function fromDone<T, P extends object, R extends object>(fixed: P, pick: (output: T) => R) {
  return Object.assign(({ event }: Done<T>): P & R => ({ ...fixed, ...pick(event.output) }), { label: fixed });
}

const stepEntry = (step: Step) =>
  [
    { type: 'rememberStep', params: { step } },
    { type: 'saveStep', params: { step } },
  ] as const;

const target = (step: Step) => (step === 'basket' ? '#checkout.basket' : `#checkout.pastBasket.${step}`);

/** What the flow does with each outcome of the reservation child. */
function reservationOutcomes(from: 'reserve' | 'captcha', failureText: string) {
  const outcomeIs = (is: ReservationOutcome['type']) =>
    ({ type: 'outcomeIs', params: fromDone({ is }, (outcome: ReservationOutcome) => ({ outcome })) }) as const;
  return [
    ...AFTER_RESERVATION.map(
      (to) =>
        ({
          guard: { type: 'reservedThenNext', params: fromDone({ from, to }, (outcome: ReservationOutcome) => ({ outcome })) },
          target: target(to),
          actions: [
            'acceptReservation',
            {
              type: 'startCountdown',
              params: ({ event }: Done<ReservationOutcome>) => ({
                secondsRemaining: event.output.type === 'reserved' ? event.output.checkoutTime : 0,
              }),
            },
          ],
        }) as const,
    ),
    {
      guard: outcomeIs('captcha'),
      target: '#checkout.pastBasket.captcha.unsolved',
      actions: [
        {
          type: 'keepSitekey',
          params: ({ event }: Done<ReservationOutcome>) => ({
            sitekey: event.output.type === 'captcha' ? event.output.sitekey : null,
          }),
        },
        'freshCaptchaWidget',
      ],
      description: 'The server wants a captcha (again): a fresh widget to solve.',
    },
    {
      guard: outcomeIs('redirect'),
      actions: {
        type: 'navigate',
        params: ({ event }: Done<ReservationOutcome>) => ({ url: event.output.type === 'redirect' ? event.output.url : '/' }),
      },
      description: 'The browser leaves for the address the server gave.',
    },
    {
      guard: outcomeIs('error'),
      target: '#checkout.basket',
      actions: [
        {
          type: 'notify',
          params: ({ event }: Done<ReservationOutcome>) => ({
            kind: 'warning' as const,
            text: event.output.type === 'error' ? event.output.message : '',
          }),
        },
        'reloadCheckout',
      ],
      description: 'The server’s reason is shown as a warning and the basket is reloaded.',
    },
    {
      guard: outcomeIs('unknown'),
      target: '#checkout.basket',
      actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unknownReservationError } },
    },
    {
      target: '#checkout.basket',
      actions: { type: 'notify', params: { kind: 'error', text: failureText } },
      description: 'The request failed.',
    },
  ] as const;
}

/** A step the buyer completes on its screen; the fresh checkout then picks the next step. */
function advancingStep(from: AdvancingStep, extra: { description?: string; paymentMayComplete?: boolean } = {}) {
  return {
    ...(extra.description ? { description: extra.description } : {}),
    entry: stepEntry(from),
    initial: 'active',
    states: {
      active: { on: { STEP_COMPLETED: { target: 'advancing' } } },
      advancing: {
        tags: ['advancing'],
        invoke: {
          src: 'loadCheckout',
          id: 'loadCheckout',
          onDone: [
            ...(extra.paymentMayComplete
              ? NEXT_STEP_TARGETS[from].map(
                  (to) =>
                    ({
                      guard: {
                        type: 'paidAndNextStepIs',
                        params: fromDone({ from, to }, (checkout: Checkout) => ({ checkout })),
                      },
                      target: target(to),
                      actions: ['markPaid', 'stopCountdown'],
                      description: 'Payment is complete: the countdown stops.',
                    }) as const,
                )
              : []),
            ...NEXT_STEP_TARGETS[from].map(
              (to) =>
                ({
                  guard: { type: 'isNextStep', params: fromDone({ from, to }, (checkout: Checkout) => ({ checkout })) },
                  target: target(to),
                }) as const,
            ),
          ],
          onError: {
            target: 'active',
            actions: { type: 'notify', params: { kind: 'error', text: MESSAGES.unableToGetCheckout } },
            description: 'The buyer stays on the step and may press Continue again.',
          },
        },
      },
    },
  } as const;
}

/**
 * A step whose screen is a child chart (invoked with a systemId): the child's output completes
 * the step, and the fresh checkout picks the next one through `nextStep`. The address form is
 * told it is the delivery address's; the questions chart whether it asks before or after payment.
 */
function childStep<
  Child extends 'donation' | 'giftAid' | 'marketing' | 'delivery' | 'address' | 'questions',
  Input extends { purpose: 'delivery' } | { beforeOrAfter: 'before' | 'after' } | undefined = undefined,
>(
  from: 'donation' | 'gift_aid' | 'marketing_preferences' | 'deliver_tickets' | 'delivery_address' | 'ticket_questions_before' | 'ticket_questions_after',
  child: Child,
  input?: Input,
) {
  const step = advancingStep(from);
  return {
    ...step,
    states: {
      ...step.states,
      active: { invoke: { src: child, id: child, systemId: child, input, onDone: { target: 'advancing' } } },
    },
  } as const;
}

type ReservingOutcome = AccountOutcome | PaymentOutcome;

/**
 * A step whose child chart may find the reservation gone: login (the account chart: signed in,
 * saved as a guest or confirmed) and payment (paid, or free tickets claimed, so the fresh checkout
 * shows payment_complete). Done, the fresh checkout picks the next step; a `reserving` outcome
 * returns to the basket, which shows the server's text and is reloaded.
 */
function reservingChildStep<Child extends 'account' | 'payment'>(from: 'login' | 'payment', child: Child, extra: { paymentMayComplete?: boolean } = {}) {
  const step = advancingStep(from, extra);
  return {
    ...step,
    states: {
      ...step.states,
      active: {
        invoke: {
          src: child,
          id: child,
          systemId: child,
          onDone: [
            {
              guard: { type: 'reservationLost', params: ({ event }: { event: { output: ReservingOutcome } }) => ({ outcome: event.output }) },
              target: '#checkout.basket',
              actions: [
                {
                  type: 'notify',
                  params: ({ event }: { event: { output: ReservingOutcome } }) => ({
                    kind: 'warning' as const,
                    text: event.output.type === 'reserving' ? event.output.message : '',
                  }),
                },
                'stopCountdown',
                'reloadCheckout',
              ],
            },
            { target: 'advancing' },
          ],
        },
      },
    },
  } as const;
}

type BankDone = { event: { output: BankTransferOutcome } };

/**
 * awaiting_truelayer: back from the bank, its chart polls the status. Paid, the fresh checkout
 * picks the next step (payment complete: the countdown stops); 'Try a different payment method'
 * returns to payment; an error with no time left returns to the basket with its reserving error.
 */
function bankTransferStep() {
  const step = advancingStep('awaiting_truelayer', { paymentMayComplete: true });
  return {
    ...step,
    states: {
      ...step.states,
      active: {
        invoke: {
          src: 'bankTransfer',
          id: 'bankTransfer',
          systemId: 'bankTransfer',
          onDone: [
            {
              guard: { type: 'reservationLost', params: ({ event }: BankDone) => ({ outcome: event.output }) },
              target: '#checkout.basket',
              actions: [
                {
                  type: 'notify',
                  params: ({ event }: BankDone) => ({ kind: 'warning' as const, text: event.output.type === 'reserving' ? event.output.message : '' }),
                },
                'stopCountdown',
                'reloadCheckout',
              ],
              description: 'The payment failed and the checkout time expired: back to the basket with the reason.',
            },
            {
              guard: { type: 'changesMethod', params: ({ event }: BankDone) => ({ outcome: event.output }) },
              target: '#checkout.pastBasket.payment',
              description: 'Try a different payment method.',
            },
            { target: 'advancing' },
          ],
        },
      },
    },
  } as const;
}

/** The hold no longer matters once the buyer has paid or is waiting for the bank. */
const ignoreExpiry = {
  COUNTDOWN_EXPIRED: { description: 'The hold no longer matters on this step.' },
} as const;

/** A saved checkout can be resumed at any step the server reports ('determining' starts at the basket). */
const resumable: Step[] = STEPS.filter((step) => step !== 'determining');

function resumeAt(step: Step) {
  const base = {
    guard: { type: 'resumesAt', params: fromDone({ step }, (checkout: Checkout) => ({ checkout })) },
    target: target(step),
  } as const;
  if (step === 'basket' || step === 'reserve') return base;
  if (step === 'captcha') {
    return {
      ...base,
      actions: [
        { type: 'keepSitekey', params: ({ event }: Done<Checkout>) => ({ sitekey: event.output.captcha_sitekey }) },
        'freshCaptchaWidget',
      ],
    } as const;
  }
  return {
    ...base,
    actions: [
      { type: 'resumeHold', params: ({ event }: Done<Checkout>) => ({ checkout: event.output }) },
      { type: 'resumeCountdown', params: ({ event }: Done<Checkout>) => ({ checkout: event.output }) },
    ],
  } as const;
}

export const checkoutMachine = checkoutSetup.createMachine({
  id: 'checkout',
  description: 'The ticket checkout, from the basket to the completed order.',
  context: initialCheckoutContext,
  entry: ['spawnCountdown', 'spawnStepSaver'],
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
            onDone: resumable.map(resumeAt),
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
      entry: stepEntry('basket'),
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
          description: 'The reservation’s chart is made ready (the app loads it, with the later steps’ charts, if it has not yet).',
          invoke: {
            src: 'prepareReservation',
            id: 'prepareReservation',
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
          description: 'The sale was ended elsewhere (another tab): the flow follows the server, without the expiry message.',
        },
        COUNTDOWN_EXPIRED: {
          target: '#checkout.basket',
          actions: ['markExpired', 'reloadCheckout'],
          description: 'Your checkout time expired: back to the basket, which is reloaded.',
        },
      },
      states: {
        history: { type: 'history', history: 'deep' },
        captcha: {
          entry: stepEntry('captcha'),
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
              invoke: {
                src: 'reservation',
                id: 'reservation',
                systemId: 'reservation',
                input: ({ context }) => (context.captchaToken ? { captchaToken: context.captchaToken } : {}),
                onDone: reservationOutcomes('captcha', MESSAGES.unableToReserveFromButton),
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
          entry: stepEntry('reserve'),
          invoke: {
            src: 'reservation',
            id: 'reservation',
            systemId: 'reservation',
            input: {},
            onDone: reservationOutcomes('reserve', MESSAGES.unableToReserve),
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
        login: reservingChildStep('login', 'account'),
        marketing_preferences: childStep('marketing_preferences', 'marketing'),
        donation: childStep('donation', 'donation'),
        gift_aid: childStep('gift_aid', 'giftAid'),
        delivery_address: childStep('delivery_address', 'address', { purpose: 'delivery' }),
        ticket_questions_before: childStep('ticket_questions_before', 'questions', { beforeOrAfter: 'before' }),
        payment: reservingChildStep('payment', 'payment', { paymentMayComplete: true }),
        deliver_tickets: childStep('deliver_tickets', 'delivery'),
        awaiting_truelayer: { ...bankTransferStep(), on: ignoreExpiry },
        ticket_questions_after: childStep('ticket_questions_after', 'questions', { beforeOrAfter: 'after' }),
        after_sale_messages: { ...advancingStep('after_sale_messages'), on: ignoreExpiry },
        waiver: advancingStep('waiver'),
        order_completed: { entry: stepEntry('order_completed'), on: ignoreExpiry },
      },
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
