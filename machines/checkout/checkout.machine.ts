/**
 * The checkout flow (spec 000 §4, spec 001 §4): one state per step of the spec, with the step
 * order as guarded transitions evaluated by `nextStep`. Child actors: `countdown` and `stepSaver`
 * live as long as the checkout; `basket` lives on the basket step; `reservation` while reserving.
 *
 * Reservation failures: a failed request from the reserve step (reached with 'Reserve Basket', or
 * resumed) shows 'Unable to reserve tickets. Please try again later'; one from the captcha step's
 * 'Continue' button shows the button wording 'Unable to reserve ticket(s). Please try again later'.
 */
import { checkoutSetup, initialCheckoutContext } from './checkout.setup';
import type { Step } from './checkout.types';
import { STEPS } from '../../src/api/contract';
import { AFTER_RESERVATION, NEXT_STEP_TARGETS, type AdvancingStep } from './nextStep';

const UNABLE_TO_GET_CHECKOUT = 'Unable to get Checkout data. Please try again later';

const stepEntry = (step: Step) =>
  [
    { type: 'rememberStep', params: { step } },
    { type: 'saveStep', params: { step } },
  ] as const;

const target = (step: Step) => (step === 'basket' ? '#checkout.basket' : `#checkout.pastBasket.${step}`);

/** What the flow does with each outcome of the reservation child. */
function reservationOutcomes(from: 'reserve' | 'captcha', failureText: string) {
  return [
    ...AFTER_RESERVATION.map(
      (to) =>
        ({
          guard: { type: 'reservedThenNext', params: { from, to } },
          target: target(to),
          actions: ['acceptReservation', 'startCountdownForReservation'],
        }) as const,
    ),
    {
      guard: { type: 'outcomeIs', params: { outcome: 'captcha' } },
      target: '#checkout.pastBasket.captcha.unsolved',
      actions: 'keepSitekeyFromReservation',
      description: 'The server wants a captcha first.',
    },
    {
      guard: { type: 'outcomeIs', params: { outcome: 'redirect' } },
      actions: { type: 'navigate', params: ({ event }: { event: { output: unknown } }) => ({ url: redirectUrl(event.output) }) },
      description: 'The browser leaves for the address the server gave.',
    },
    {
      guard: { type: 'outcomeIs', params: { outcome: 'error' } },
      target: '#checkout.basket',
      actions: ['warnRefusal', 'reloadCheckout'],
      description: 'The server’s reason is shown as a warning and the basket is reloaded.',
    },
    {
      guard: { type: 'outcomeIs', params: { outcome: 'unknown' } },
      target: '#checkout.basket',
      actions: {
        type: 'notify',
        params: { kind: 'error', text: 'An unknown error occured. Please try again, or contact support.' },
      },
    },
    {
      target: '#checkout.basket',
      actions: { type: 'notify', params: { kind: 'error', text: failureText } },
      description: 'The request failed.',
    },
  ] as const;
}

function redirectUrl(output: unknown): string {
  const outcome = output as { type: string; url?: string };
  return outcome.type === 'redirect' && outcome.url ? outcome.url : '/';
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
        invoke: {
          src: 'loadCheckout',
          id: 'loadCheckout',
          onDone: [
            ...(extra.paymentMayComplete
              ? NEXT_STEP_TARGETS[from].map(
                  (to) =>
                    ({
                      guard: { type: 'paidAndNextStepIs', params: { from, to } },
                      target: target(to),
                      actions: 'stopCountdown',
                      description: 'Payment is complete: the countdown stops.',
                    }) as const,
                )
              : []),
            ...NEXT_STEP_TARGETS[from].map(
              (to) => ({ guard: { type: 'isNextStep', params: { from, to } }, target: target(to) }) as const,
            ),
          ],
          onError: {
            target: 'active',
            actions: { type: 'notify', params: { kind: 'error', text: UNABLE_TO_GET_CHECKOUT } },
          },
        },
      },
    },
  } as const;
}

/** The hold no longer matters once the buyer has paid or is waiting for the bank. */
const ignoreExpiry = {
  COUNTDOWN_EXPIRED: { description: 'The hold no longer matters on this step.' },
} as const;

/** A saved checkout can be resumed at any step the server reports. */
const resumable: Step[] = STEPS.filter((step) => step !== 'determining');

function resumeAt(step: Step) {
  const base = { guard: { type: 'checkoutStateIs', params: { step } }, target: target(step) } as const;
  if (step === 'basket' || step === 'reserve') return base;
  if (step === 'captcha') return { ...base, actions: 'keepSitekeyFromCheckout' } as const;
  return { ...base, actions: ['keepHoldFromCheckout', 'resumeCountdown'] } as const;
}

export const checkoutMachine = checkoutSetup.createMachine({
  id: 'checkout',
  description: 'The ticket checkout, from the basket to the completed order.',
  context: initialCheckoutContext,
  entry: ['spawnCountdown', 'spawnStepSaver'],
  initial: 'determining',
  on: {
    TAB_VISIBLE: { actions: 'reloadCheckout', description: 'The tab is visible again: re-read the checkout.' },
    NOTICE_RAISED: { actions: 'keepChildNotice' },
    NOTICE_DISMISSED: { actions: 'dismissNotice' },
    STEP_SAVED: { actions: ['keepSecondsRemaining', 'syncCountdown'] },
    STEP_SAVE_FAILED: {
      actions: { type: 'notify', params: { kind: 'error', text: 'Unable to update the Basket state. Please try again later' } },
    },
  },
  states: {
    determining: {
      description: 'Determining checkout progress: the server says which step the buyer is on.',
      initial: 'loading',
      states: {
        loading: {
          invoke: {
            src: 'loadCheckout',
            id: 'loadCheckout',
            onDone: [
              ...resumable.map(resumeAt),
              { target: '#checkout.basket', description: 'No step yet: start at the basket.' },
            ],
            onError: {
              target: 'failed',
              actions: { type: 'notify', params: { kind: 'error', text: UNABLE_TO_GET_CHECKOUT } },
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
          description: 'Reserve Basket was pressed; the reserve step follows after reserveDelay.',
          after: { reserveDelay: { target: '#checkout.pastBasket.reserve' } },
        },
      },
    },
    pastBasket: {
      description: 'Every step after the basket. Edit basket and the hold running out lead back to it.',
      initial: 'reserve',
      on: {
        EDIT_BASKET_CONFIRMED: { target: '#checkout.editingBasket' },
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
              description: 'Reserving with the captcha token; the widget is ignored until the answer.',
              invoke: {
                src: 'reservation',
                id: 'reservation',
                systemId: 'reservation',
                input: ({ context }) => (context.captchaToken ? { captchaToken: context.captchaToken } : {}),
                onDone: reservationOutcomes('captcha', 'Unable to reserve ticket(s). Please try again later'),
                onError: {
                  target: '#checkout.basket',
                  actions: {
                    type: 'notify',
                    params: { kind: 'error', text: 'Unable to reserve ticket(s). Please try again later' },
                  },
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
          entry: stepEntry('reserve'),
          invoke: {
            src: 'reservation',
            id: 'reservation',
            systemId: 'reservation',
            input: {},
            onDone: reservationOutcomes('reserve', 'Unable to reserve tickets. Please try again later'),
            onError: {
              target: '#checkout.basket',
              actions: { type: 'notify', params: { kind: 'error', text: 'Unable to reserve tickets. Please try again later' } },
            },
          },
          on: {
            COPY_LINK_CLICKED: { actions: 'forwardToReservation' },
            WHY_TOGGLED: { actions: 'forwardToReservation' },
          },
        },
        login: advancingStep('login'),
        marketing_preferences: advancingStep('marketing_preferences'),
        donation: advancingStep('donation'),
        gift_aid: advancingStep('gift_aid'),
        delivery_address: advancingStep('delivery_address'),
        ticket_questions_before: advancingStep('ticket_questions_before'),
        payment: advancingStep('payment', { paymentMayComplete: true }),
        deliver_tickets: advancingStep('deliver_tickets'),
        awaiting_truelayer: {
          ...advancingStep('awaiting_truelayer', { paymentMayComplete: true }),
          on: ignoreExpiry,
        },
        ticket_questions_after: advancingStep('ticket_questions_after'),
        after_sale_messages: { ...advancingStep('after_sale_messages'), on: ignoreExpiry },
        waiver: advancingStep('waiver'),
        order_completed: { entry: stepEntry('order_completed'), on: ignoreExpiry },
      },
    },
    editingBasket: {
      description: 'Edit basket: the sale is destroyed before returning to the basket.',
      invoke: {
        src: 'destroySale',
        id: 'destroySale',
        onDone: { target: 'basket', actions: ['reloadCheckout', 'stopCountdown'] },
        onError: {
          target: '#checkout.pastBasket.history',
          actions: { type: 'notify', params: { kind: 'error', text: 'Unable to edit Basket. Please try again later' } },
          description: 'Back to where the buyer was.',
        },
      },
    },
  },
});
