/**
 * The payment step (spec 001 §2 Payment, §4 Payment method state, §5, §8): the sale's situation
 * first (already paid, blocked for a SaaS organiser without a provider, free, or to pay); a zero
 * total is claimed with claim_free_tickets and goes on by itself; otherwise the buyer's details
 * (set_account_details in express mode; otherwise the billing address, from the shared address
 * form invoked as this chart's child `billingAddress`, with set_billing_address), then the card: a token,
 * then the provider's confirmation. Paying sets the method's flag; a reset clears every flag and
 * the method and shows the error. The output tells the root to go on, or back to the basket.
 */
import { assertEvent, assign, sendTo, setup } from 'xstate';
import {
  EMPTY_BILLING_ADDRESS,
  emptyAddressFields,
  startOf,
  type AddressPayload,
  type AddressStart,
  type BillingAddress,
  type ChosenMethod,
  type PaymentMethod,
  type RequestOf,
  type ResponseOf,
} from '../../contract';
import { messageOf } from '../../contract/errors.ts';
import { codeDigits, ONE_TIME_CODE_LENGTH } from '../../contract/account';
import { ADDRESS_MESSAGES } from '../../contract/messages/address';
import { ACCOUNT_MESSAGES } from '../../contract/messages/account';
import { MESSAGES } from '../../contract/messages/checkout';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment';
import { failureOf } from '../../contract/outcome';
import { paymentProblems } from './payment.rules';
import { instalmentMachine } from '../instalment/instalment.machine';
import type { InstalmentOutcome } from '../instalment/instalment.types';
import { squareMachine, type SquareOutcome } from '../square/square.machine';
import { addressMachine } from '../address/address.machine';
import {
  type CardResult,
  type PaymentEvent,
  type PaymentForm,
  type PaymentOutcome,
  type PaymentProblemField,
  type PaymentSignIn,
  type PaymentSituation,
} from './payment.types';
import { providedByApp } from '../providedByApp';

const NO_BILLING: AddressStart = { selected: 'new', fields: emptyAddressFields };

const NO_FLAGS: Record<ChosenMethod, boolean> = { truelayer: false, stripe: false, square: false, instalment: false };

export interface PaymentContext {
  situation: PaymentSituation | null;
  form: PaymentForm;
  /** Where the billing address form starts: what the buyer gave last (or the sale's prefill). */
  billing: AddressStart;
  /** The billing address the form gave on Pay, sent with set_billing_address. */
  billingPayload: AddressPayload | null;
  /** The billing address as the server took it (set_billing_address's answer), for Square. */
  billedTo: BillingAddress;
  method: PaymentMethod;
  /** The per-method 'paying' flags of spec 001 §4. */
  paying: Record<ChosenMethod, boolean>;
  /** Shown beside each field after a Pay click, until the field changes. */
  problems: Partial<Record<PaymentProblemField, string>>;
  /** The payment error shown above the Pay button (a failed call or the provider's message). */
  error: string | null;
  token: ResponseOf<'getStripeToken'> | null;
  /** The code sign-in for an e-mail that has an account, while it is on screen. */
  signIn: PaymentSignIn | null;
  outcome: PaymentOutcome;
}

const initialForm: PaymentForm = {
  fullName: '',
  email: '',
  contactNumber: '',
  organisers: {},
  newsletter: false,
  plan: { option: null, card: null, makeDefault: true },
};

/** set_billing_address's answer, without its id: the address Square is given. */
function billedToOf({ id: _id, ...address }: ResponseOf<'setBillingAddress'>): BillingAddress {
  return address;
}

export const paymentMachine = setup({
  types: {
    context: {} as PaymentContext,
    events: {} as PaymentEvent,
    output: {} as PaymentOutcome,
    children: {} as {
      loadPayment: 'loadPayment';
      claimFreeTickets: 'claimFreeTickets';
      setAccountDetails: 'setAccountDetails';
      setBillingAddress: 'setBillingAddress';
      getStripeToken: 'getStripeToken';
      confirmCard: 'confirmCard';
      billingAddress: 'billingAddress';
      sendOneTimeCode: 'sendOneTimeCode';
      checkOneTimeCode: 'checkOneTimeCode';
    },
    tags: {} as 'loading' | 'claiming' | 'paying' | 'signingIn',
  },
  actors: {
    /** Reads the checkout and get_payment_error afresh, as a situation. */
    loadPayment: providedByApp.call<PaymentSituation, void>('loadPayment'),
    claimFreeTickets: providedByApp.call<ResponseOf<'claimFreeTickets'>, RequestOf<'claimFreeTickets'>>(
      'claimFreeTickets',
    ),
    setAccountDetails: providedByApp.call<ResponseOf<'setAccountDetails'>, RequestOf<'setAccountDetails'>>(
      'setAccountDetails',
    ),
    /** Rejects with a `holdLost` outcome when the server no longer holds the tickets. */
    setBillingAddress: providedByApp.call<ResponseOf<'setBillingAddress'>, RequestOf<'setBillingAddress'>>(
      'setBillingAddress',
    ),
    getStripeToken: providedByApp.call<ResponseOf<'getStripeToken'>, void>('getStripeToken'),
    /**
     * The card provider takes the card and confirms: it may leave the page (a card form or a
     * challenge that returns to /do/checkout/stripe_auth/), or end here with the result.
     */
    confirmCard: providedByApp.call<CardResult, ResponseOf<'getStripeToken'>>('confirmCard'),
    /** pay_with_truelayer: the bank's page for this payment. */
    payWithTruelayer: providedByApp.call<ResponseOf<'payWithTruelayer'>, RequestOf<'payWithTruelayer'>>(
      'payWithTruelayer',
    ),
    /** A plan: a new card saved, then pay_with_instalment (machines/instalment). */
    instalment: instalmentMachine,
    /** Square: its credentials, its card form, then pay-with-square (machines/square). */
    square: squareMachine,
    /** The billing address: the shared address form (machines/address) for the billing purpose. */
    billingAddress: addressMachine,
    /** send_one_time_code for the account's e-mail; rejects with the words to show. */
    sendOneTimeCode: providedByApp.call<void, { email: string }>('sendOneTimeCode'),
    /** check_one_time_code: signs the buyer in and the sale becomes theirs; rejects with a refusal in the words to show, or `holdLost`. */
    checkOneTimeCode: providedByApp.call<void, { email: string; code: string }>('checkOneTimeCode'),
  },
  actions: {
    keepSituation: assign((_, params: { situation: PaymentSituation }) => ({
      situation: params.situation,
      method: params.situation.autoMethod,
      error: params.situation.paymentError,
      form: {
        ...initialForm,
        fullName: params.situation.fullName ?? initialForm.fullName,
        email: params.situation.email,
      },
      billing: params.situation.billingStart ?? NO_BILLING,
    })),
    showLoadFailure: assign({ error: MESSAGES.unableToGetCheckout }),
    clearError: assign({ error: null }),
    showClaimFailure: assign({ error: PAYMENT_MESSAGES.claimFree }),
    changeField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_CHANGED');
      const { field, value } = event;
      const { [field]: _gone, ...problems } = context.problems;
      return { form: { ...context.form, [field]: value }, problems };
    }),
    /** A field left with something typed in it says at once what is wrong with it (spec 001 §5); an empty one waits for Pay. */
    checkLeftField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_LEFT');
      if (!context.situation || context.form[event.field].trim() === '') return {};
      const problem = paymentProblems(context.form, context.situation, context.method)[event.field];
      return problem ? { problems: { ...context.problems, [event.field]: problem } } : {};
    }),
    toggleOrganiser: assign(({ context, event }) => {
      assertEvent(event, 'ORGANISER_TOGGLED');
      const key = String(event.organiserId);
      return {
        form: { ...context.form, organisers: { ...context.form.organisers, [key]: !context.form.organisers[key] } },
      };
    }),
    toggleNewsletter: assign(({ context }) => ({ form: { ...context.form, newsletter: !context.form.newsletter } })),
    choosePlanOption: assign(({ context, event }) => {
      assertEvent(event, 'PLAN_OPTION_CHOSEN');
      const { planOption: _gone, ...problems } = context.problems;
      return { form: { ...context.form, plan: { ...context.form.plan, option: event.option } }, problems };
    }),
    choosePlanCard: assign(({ context, event }) => {
      assertEvent(event, 'PLAN_CARD_CHOSEN');
      const { planCard: _gone, ...problems } = context.problems;
      return { form: { ...context.form, plan: { ...context.form.plan, card: event.card } }, problems };
    }),
    togglePlanDefault: assign(({ context }) => ({
      form: { ...context.form, plan: { ...context.form.plan, makeDefault: !context.form.plan.makeDefault } },
    })),
    chooseMethod: assign(({ context, event }) => {
      assertEvent(event, 'METHOD_CHOSEN');
      const { method: _gone, ...problems } = context.problems;
      return { method: event.method, problems };
    }),
    showProblems: assign(({ context }) => ({
      problems: context.situation ? paymentProblems(context.form, context.situation, context.method) : {},
    })),
    /** Pay was pressed: the billing form checks itself, and gives the address back when it is valid. */
    askBillingAddress: sendTo('billingAddress', { type: 'CONTINUE_CLICKED', giftVouchers: false }),
    keepBillingAddress: assign(({ context, event }) => {
      assertEvent(event, 'ADDRESS_GIVEN');
      return { billingPayload: event.outcome.address, billing: startOf(event.outcome.address, context.billing.fields) };
    }),
    keepBilledTo: assign((_, params: { address: BillingAddress }) => ({ billedTo: params.address })),
    markPaying: assign(({ context }) => ({
      paying: context.method === 'none' ? NO_FLAGS : { ...NO_FLAGS, [context.method]: true },
      problems: {},
      error: null,
    })),
    keepToken: assign((_, params: { token: ResponseOf<'getStripeToken'> }) => ({ token: params.token })),
    /** Spec 001 §4: every flag and the method cleared, the error shown; a sole method is chosen again. */
    reset: assign(({ context }, params: { message: string }) => ({
      paying: NO_FLAGS,
      method: context.situation?.autoMethod ?? 'none',
      token: null,
      error: params.message,
    })),
    /** The browser goes to the bank's page (auth_url). Provided by the app. */
    goToBank: (_, _params: { url: string }) => {},
    keepHoldLost: assign((_, params: { message: string }) => ({
      outcome: { kind: 'holdLost' as const, message: params.message },
    })),
    startSignIn: assign(({ context }) => ({ signIn: { email: context.form.email.trim(), code: '', error: null } })),
    forgetSignIn: assign({ signIn: null }),
    setCode: assign(({ context, event }) => {
      assertEvent(event, 'CODE_CHANGED');
      return { signIn: context.signIn && { ...context.signIn, code: codeDigits(event.value), error: null } };
    }),
    /** A refused code or a failed send: said beside the code, which is cleared for the next try. */
    showSignInError: assign(({ context }, params: { message: string }) => ({
      signIn: context.signIn && { ...context.signIn, code: '', error: params.message },
    })),
    clearSignInError: assign(({ context }) => ({
      signIn: context.signIn && { ...context.signIn, code: '', error: null },
    })),
  },
  guards: {
    isPaid: (_, params: { situation: PaymentSituation }) => params.situation.paid,
    isBlocked: (_, params: { situation: PaymentSituation }) => params.situation.blockedBy !== null,
    isFree: (_, params: { situation: PaymentSituation }) => params.situation.free,
    formIsValid: ({ context }) =>
      context.situation !== null &&
      Object.keys(paymentProblems(context.form, context.situation, context.method)).length === 0,
    isExpress: ({ context }) => context.situation?.express ?? false,
    /** The call's outcome: the server no longer holds the tickets. */
    holdLost: (_, params: { error: unknown }) => failureOf(params.error).kind === 'holdLost',
    /** The call's outcome: refused because the e-mail has an account ('sign_in'). */
    accountExists: (_, params: { error: unknown }) => {
      const failure = failureOf(params.error);
      return failure.kind === 'refused' && failure.reason === 'sign_in';
    },
    codeIsComplete: ({ context }) => context.signIn?.code.length === ONE_TIME_CODE_LENGTH,
    cardSucceeded: (_, params: { result: CardResult }) => params.result.status === 'succeeded',
    isMethod: ({ context }, params: { method: PaymentMethod }) => context.method === params.method,
    outcomePaid: (_, params: { outcome: InstalmentOutcome | SquareOutcome }) => params.outcome.kind === 'paid',
    outcomeHoldLost: (_, params: { outcome: InstalmentOutcome | SquareOutcome }) => params.outcome.kind === 'holdLost',
  },
}).createMachine({
  id: 'payment',
  description: 'Pay for the sale, or claim its free tickets.',
  context: {
    situation: null,
    form: initialForm,
    billing: NO_BILLING,
    billingPayload: null,
    billedTo: EMPTY_BILLING_ADDRESS,
    method: 'none',
    paying: NO_FLAGS,
    problems: {},
    error: null,
    token: null,
    signIn: null,
    // Reaching `paid` ends the payment as it starts; only a lost hold changes the outcome.
    outcome: { kind: 'paid' },
  },
  output: ({ context }) => context.outcome,
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      description: 'The checkout and the last payment error, read afresh (a card return lands here).',
      invoke: {
        src: 'loadPayment',
        id: 'loadPayment',
        onDone: [
          {
            guard: { type: 'isPaid', params: ({ event }) => ({ situation: event.output }) },
            target: 'paid',
            description: 'Already paid (a card return): straight on.',
          },
          {
            guard: { type: 'isBlocked', params: ({ event }) => ({ situation: event.output }) },
            target: 'blocked',
            actions: { type: 'keepSituation', params: ({ event }) => ({ situation: event.output }) },
          },
          {
            guard: { type: 'isFree', params: ({ event }) => ({ situation: event.output }) },
            target: 'claiming',
            actions: { type: 'keepSituation', params: ({ event }) => ({ situation: event.output }) },
          },
          { target: 'ready', actions: { type: 'keepSituation', params: ({ event }) => ({ situation: event.output }) } },
        ],
        onError: { target: 'loadFailed', actions: 'showLoadFailure' },
      },
    },
    loadFailed: { on: { RETRY_CLICKED: { target: 'loading', actions: 'clearError' } } },
    blocked: { description: 'A SaaS organiser without a payment provider: no payment can be taken.' },
    claiming: {
      tags: ['claiming'],
      description: 'Claiming free tickets: a zero total goes on by itself.',
      invoke: {
        src: 'claimFreeTickets',
        id: 'claimFreeTickets',
        input: ({ context }) => (context.situation?.email ? { email: context.situation.email } : {}),
        onDone: { target: 'paid' },
        onError: { target: 'claimFailed', actions: 'showClaimFailure' },
      },
    },
    claimFailed: { on: { RETRY_CLICKED: { target: 'claiming', actions: 'clearError' } } },
    ready: {
      on: {
        FIELD_CHANGED: { actions: 'changeField' },
        FIELD_LEFT: {
          actions: 'checkLeftField',
          description: 'What was typed in the field just left is checked, so a disabled Pay is explained.',
        },
        ORGANISER_TOGGLED: { actions: 'toggleOrganiser' },
        NEWSLETTER_TOGGLED: { actions: 'toggleNewsletter' },
        METHOD_CHOSEN: { actions: 'chooseMethod' },
        PLAN_OPTION_CHOSEN: { actions: 'choosePlanOption' },
        PLAN_CARD_CHOSEN: { actions: 'choosePlanCard' },
        PLAN_DEFAULT_TOGGLED: { actions: 'togglePlanDefault' },
      },
      initial: 'details',
      states: {
        details: {
          always: [{ guard: 'isExpress', target: 'account' }, { target: 'billing' }],
        },
        account: {
          description: 'Express: the buyer’s name and e-mail make the account the tickets go to.',
          on: {
            PAY_CLICKED: [
              { guard: 'formIsValid', target: '#payment.savingAccount', actions: 'markPaying' },
              { actions: 'showProblems', description: 'Each field says what it needs; nothing is sent.' },
            ],
          },
        },
        billing: {
          description: 'The billing address form, the shared address chart, starts from what the buyer gave before.',
          invoke: {
            src: 'billingAddress',
            id: 'billingAddress',
            input: ({ context }) => ({ purpose: 'billing' as const, start: context.billing }),
          },
          on: {
            PAY_CLICKED: {
              actions: ['showProblems', 'askBillingAddress'],
              description:
                'Each field says what it needs; the address form checks itself and gives a valid address back.',
            },
            ADDRESS_GIVEN: [
              { guard: 'formIsValid', target: '#payment.savingBilling', actions: ['keepBillingAddress', 'markPaying'] },
              {
                actions: 'keepBillingAddress',
                description: 'The rest of the form still needs something: nothing is sent.',
              },
            ],
          },
        },
      },
    },
    savingAccount: {
      tags: ['paying'],
      invoke: {
        src: 'setAccountDetails',
        id: 'setAccountDetails',
        input: ({ context }) => ({
          fullname: context.form.fullName.trim(),
          email: context.form.email.trim(),
          ...(context.form.contactNumber.trim() ? { contact_number: context.form.contactNumber.trim() } : {}),
          organiser_subscribed_marketing: Object.fromEntries(
            (context.situation?.marketingOrganisers ?? []).map((o) => [
              String(o.id),
              String(context.form.organisers[String(o.id)] ?? false),
            ]),
          ),
          ct_subscribed: String(context.form.newsletter),
        }),
        onDone: [
          { guard: { type: 'isMethod', params: { method: 'truelayer' } }, target: 'payingWithBank' },
          { guard: { type: 'isMethod', params: { method: 'instalment' } }, target: 'instalment' },
          { guard: { type: 'isMethod', params: { method: 'square' } }, target: 'square' },
          { target: 'gettingToken' },
        ],
        onError: [
          {
            guard: { type: 'holdLost', params: ({ event }) => ({ error: event.error }) },
            target: 'holdLost',
            actions: { type: 'keepHoldLost', params: ({ event }) => ({ message: messageOf(event.error, '') }) },
          },
          {
            guard: { type: 'accountExists', params: ({ event }) => ({ error: event.error }) },
            target: 'signIn',
            actions: [
              {
                type: 'reset',
                params: ({ event }) => ({ message: messageOf(event.error, PAYMENT_MESSAGES.existingAccount) }),
              },
              'startSignIn',
            ],
            description: 'The e-mail has an account: nothing is attached to it until its code signs the buyer in.',
          },
          {
            target: 'ready',
            actions: {
              type: 'reset',
              params: ({ event }) => ({ message: messageOf(event.error, PAYMENT_MESSAGES.unableToPay) }),
            },
          },
        ],
      },
    },
    signIn: {
      description: 'The code sent to the account’s e-mail signs the buyer in; the step is then read again, as theirs.',
      initial: 'sending',
      states: {
        sending: {
          tags: ['signingIn'],
          invoke: {
            src: 'sendOneTimeCode',
            id: 'sendOneTimeCode',
            input: ({ context }) => ({ email: context.signIn?.email ?? '' }),
            onDone: { target: 'codeSent' },
            onError: {
              target: 'codeSent',
              actions: {
                type: 'showSignInError',
                params: ({ event }) => ({ message: messageOf(event.error, ACCOUNT_MESSAGES.sendFailed) }),
              },
            },
          },
        },
        codeSent: {
          on: {
            CODE_CHANGED: { actions: 'setCode' },
            VERIFY_CLICKED: { guard: 'codeIsComplete', target: 'checking' },
            RESEND_CLICKED: { target: 'sending', actions: 'clearSignInError' },
            SIGN_IN_CANCELLED: {
              target: '#payment.ready',
              actions: ['forgetSignIn', 'clearError'],
              description: 'Another e-mail instead.',
            },
          },
        },
        checking: {
          tags: ['signingIn'],
          invoke: {
            src: 'checkOneTimeCode',
            id: 'checkOneTimeCode',
            input: ({ context }) => ({ email: context.signIn?.email ?? '', code: context.signIn?.code ?? '' }),
            onDone: { target: '#payment.loading', actions: 'forgetSignIn' },
            onError: [
              {
                guard: { type: 'holdLost', params: ({ event }) => ({ error: event.error }) },
                target: '#payment.holdLost',
                actions: { type: 'keepHoldLost', params: ({ event }) => ({ message: messageOf(event.error, '') }) },
              },
              {
                target: 'codeSent',
                actions: {
                  type: 'showSignInError',
                  params: ({ event }) => ({ message: messageOf(event.error, ACCOUNT_MESSAGES.checkFailed) }),
                },
              },
            ],
          },
        },
      },
    },
    savingBilling: {
      tags: ['paying'],
      invoke: {
        src: 'setBillingAddress',
        id: 'setBillingAddress',
        input: ({ context }) => ({
          address: context.billingPayload ?? { selected_user_address_id: 'new' },
          ...(context.form.contactNumber.trim() ? { contact_number: context.form.contactNumber.trim() } : {}),
        }),
        onDone: [
          {
            guard: { type: 'isMethod', params: { method: 'truelayer' } },
            target: 'payingWithBank',
          },
          {
            guard: { type: 'isMethod', params: { method: 'instalment' } },
            target: 'instalment',
          },
          {
            guard: { type: 'isMethod', params: { method: 'square' } },
            target: 'square',
            actions: { type: 'keepBilledTo', params: ({ event }) => ({ address: billedToOf(event.output) }) },
          },
          {
            target: 'gettingToken',
          },
        ],
        onError: [
          {
            guard: { type: 'holdLost', params: ({ event }) => ({ error: event.error }) },
            target: 'holdLost',
            actions: { type: 'keepHoldLost', params: ({ event }) => ({ message: messageOf(event.error, '') }) },
            description: 'The failure body has an error: it becomes the reserving error, back at the basket.',
          },
          { target: 'ready', actions: { type: 'reset', params: { message: ADDRESS_MESSAGES.unableToFindBilling } } },
        ],
      },
    },
    gettingToken: {
      tags: ['paying'],
      invoke: {
        src: 'getStripeToken',
        id: 'getStripeToken',
        onDone: {
          target: 'confirming',
          actions: { type: 'keepToken', params: ({ event }) => ({ token: event.output }) },
        },
        onError: {
          target: 'recheckingPaid',
          description: 'No token: the sale may have been paid elsewhere (another tab).',
        },
      },
    },
    recheckingPaid: {
      tags: ['paying'],
      description:
        'The sale read afresh after a refused token: paid elsewhere goes straight on, otherwise the token error is shown.',
      invoke: {
        src: 'loadPayment',
        id: 'loadPayment',
        onDone: [
          {
            guard: { type: 'isPaid', params: ({ event }) => ({ situation: event.output }) },
            target: 'paid',
            description: 'Paid in another tab: on to the paid order.',
          },
          { target: 'ready', actions: { type: 'reset', params: { message: PAYMENT_MESSAGES.stripeToken } } },
        ],
        onError: { target: 'ready', actions: { type: 'reset', params: { message: PAYMENT_MESSAGES.stripeToken } } },
      },
    },
    confirming: {
      tags: ['paying'],
      description: 'The card provider confirms; a card form or a challenge page may take the buyer away and back.',
      invoke: {
        src: 'confirmCard',
        id: 'confirmCard',
        input: ({ context }) => context.token ?? { public_key: '', client_secret: '' },
        onDone: [
          {
            guard: { type: 'cardSucceeded', params: ({ event }) => ({ result: event.output }) },
            target: 'paid',
          },
          {
            target: 'ready',
            actions: {
              type: 'reset',
              params: ({ event }) => ({
                message:
                  (event.output.status === 'failed' ? event.output.message : null) ?? PAYMENT_MESSAGES.unableToPay,
              }),
            },
            description: 'The provider’s message is shown as the payment error.',
          },
        ],
        onError: { target: 'ready', actions: { type: 'reset', params: { message: PAYMENT_MESSAGES.stripeRedirect } } },
      },
    },
    payingWithBank: {
      tags: ['paying'],
      description: 'Instant bank transfer: pay_with_truelayer with the contact number gives the bank’s page.',
      invoke: {
        src: 'payWithTruelayer',
        id: 'payWithTruelayer',
        input: ({ context }) =>
          context.form.contactNumber.trim() ? { contact_number: context.form.contactNumber.trim() } : {},
        onDone: {
          target: 'atBank',
          actions: { type: 'goToBank', params: ({ event }) => ({ url: event.output.auth_url }) },
        },
        onError: {
          target: 'ready',
          actions: { type: 'reset', params: { message: PAYMENT_MESSAGES.truelayerRedirect } },
        },
      },
    },
    atBank: {
      tags: ['paying'],
      description: 'The browser is on its way to the bank, which returns the buyer to awaiting_truelayer.',
    },
    instalment: {
      description: 'A payment plan: the card saved, then pay_with_instalment.',
      tags: ['paying'],
      invoke: {
        src: 'instalment',
        id: 'instalment',
        input: ({ context }) => ({
          option: context.form.plan.option ?? '',
          contactNumber: context.form.contactNumber.trim(),
          card: context.form.plan.card ?? '',
          makeDefault: context.form.plan.makeDefault,
        }),
        onDone: [
          {
            guard: { type: 'outcomePaid', params: ({ event }) => ({ outcome: event.output }) },
            target: 'paid',
          },
          {
            guard: { type: 'outcomeHoldLost', params: ({ event }) => ({ outcome: event.output }) },
            target: 'holdLost',
            actions: {
              type: 'keepHoldLost',
              params: ({ event }) => ({ message: event.output.kind === 'holdLost' ? event.output.message : '' }),
            },
          },
          {
            target: 'ready',
            actions: {
              type: 'reset',
              params: ({ event }) => ({
                message: event.output.kind === 'failed' ? event.output.message : PAYMENT_MESSAGES.unableToPay,
              }),
            },
          },
        ],
      },
    },
    square: {
      description: 'Square: its credentials, its card form, then pay-with-square.',
      tags: ['paying'],
      invoke: {
        src: 'square',
        id: 'square',
        input: ({ context }) => ({ address: context.billedTo }),
        onDone: [
          {
            guard: { type: 'outcomePaid', params: ({ event }) => ({ outcome: event.output }) },
            target: 'paid',
          },
          {
            guard: { type: 'outcomeHoldLost', params: ({ event }) => ({ outcome: event.output }) },
            target: 'holdLost',
            actions: {
              type: 'keepHoldLost',
              params: ({ event }) => ({ message: event.output.kind === 'holdLost' ? event.output.message : '' }),
            },
          },
          {
            target: 'ready',
            actions: {
              type: 'reset',
              params: ({ event }) => ({
                message: event.output.kind === 'failed' ? event.output.message : PAYMENT_MESSAGES.unableToPay,
              }),
            },
          },
        ],
      },
    },
    paid: { type: 'final' },
    holdLost: { type: 'final' },
  },
});
