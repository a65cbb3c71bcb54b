/** What the payment screen shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import type { AddressStart, ChosenMethod, PaymentMethod } from '../../contract';
import { METHOD_LABELS, noMethodMessage, PAYMENT_TITLES, saasBlockedMessage } from '../../contract/messages/payment';
import type { paymentMachine } from './payment.machine';
import type { FormField, PaymentEvent, PaymentForm, PaymentProblemField } from './payment.types';
import { planProblems } from '../instalment/instalment.rules';
import { ONE_TIME_CODE_LENGTH } from '../../contract/account';

export interface PaymentView {
  title: string;
  loading: boolean;
  /** The SaaS block's text, or null. */
  blocked: string | null;
  claiming: boolean;
  /** A zero total: the tickets are claimed, not paid for. */
  free: boolean;
  /** 'Confirming Payment': details, token or card confirmation in flight. */
  paying: boolean;
  /** A retry is offered (a failed claim or checkout read). */
  canRetry: boolean;
  /** The form is on screen. */
  showForm: boolean;
  express: boolean;
  phoneRequired: boolean;
  form: PaymentForm;
  /** The billing address as the buyer last gave it (what the form starts from), for a non-express buyer. */
  billing: AddressStart | null;
  methods: { method: ChosenMethod; label: string; chosen: boolean }[];
  method: PaymentMethod;
  payingFlags: Record<ChosenMethod, boolean>;
  organisers: { id: number; message: string; checked: boolean }[];
  problems: Partial<Record<PaymentProblemField, string>>;
  error: string | null;
  /** No method can take this basket: why, and what the buyer can do; else null. */
  noMethod: string | null;
  /** Pay can be pressed: always, except for a plan without an option, a valid phone and a card (spec 001 §5). */
  canPay: boolean;
  /** The plan's options on offer (never '1'). */
  planOptions: string[];
  /** The paying organiser's team, when the signed-in buyer is one of them; else empty. */
  opoaTeam: string[];
  /**
   * The e-mail has an account: the code sent to it, typed here, signs the buyer in (`error` above
   * says why); null otherwise.
   */
  signIn: { email: string; code: string; error: string | null; busy: boolean; canVerify: boolean } | null;
}

export function viewPayment(snapshot: SnapshotFrom<typeof paymentMachine>): PaymentView {
  const c = snapshot.context;
  const s = c.situation;
  const paying = snapshot.hasTag('paying');
  const express = s?.express ?? false;
  const noMethod = snapshot.matches('ready') && s !== null && s.offered.length === 0 ? noMethodMessage() : null;
  return {
    // Only a free sale is claimed, so claiming and its failure keep the free title.
    title:
      (s?.free ?? false)
        ? PAYMENT_TITLES.free
        : paying
          ? PAYMENT_TITLES.paying
          : express
            ? PAYMENT_TITLES.express
            : PAYMENT_TITLES.payment,
    loading: snapshot.hasTag('loading'),
    blocked: snapshot.matches('blocked') && s?.blockedBy ? saasBlockedMessage(s.blockedBy) : null,
    claiming: snapshot.hasTag('claiming'),
    free: s?.free ?? false,
    paying,
    canRetry: snapshot.matches('claimFailed') || snapshot.matches('loadFailed'),
    showForm: snapshot.matches('ready') || paying,
    express,
    phoneRequired: s?.phoneRequired ?? false,
    form: c.form,
    billing: express ? null : c.billing,
    methods: (s?.offered ?? []).map((method) => ({
      method,
      label: METHOD_LABELS[method],
      chosen: c.method === method,
    })),
    method: c.method,
    payingFlags: c.paying,
    organisers: (s?.marketingOrganisers ?? []).map((o) => ({
      id: o.id,
      message: o.message,
      checked: c.form.organisers[String(o.id)] ?? false,
    })),
    problems: c.problems,
    error: c.error,
    noMethod,
    canPay:
      noMethod === null &&
      (c.method !== 'instalment' ||
        Object.keys(planProblems(c.form.plan, c.form.contactNumber.trim(), s?.planOptions ?? [])).length === 0),
    planOptions: s?.planOptions ?? [],
    opoaTeam: s?.opoaTeam ?? [],
    signIn:
      snapshot.matches('signIn') && c.signIn
        ? {
            ...c.signIn,
            busy: snapshot.hasTag('signingIn'),
            canVerify: snapshot.matches({ signIn: 'codeSent' }) && c.signIn.code.length === ONE_TIME_CODE_LENGTH,
          }
        : null,
  };
}

export function paymentSenders(send: (event: PaymentEvent) => void) {
  return {
    change: (field: FormField, value: string) => send({ type: 'FIELD_CHANGED', field, value }),
    leave: (field: FormField) => send({ type: 'FIELD_LEFT', field }),
    toggleOrganiser: (organiserId: number) => send({ type: 'ORGANISER_TOGGLED', organiserId }),
    toggleNewsletter: () => send({ type: 'NEWSLETTER_TOGGLED' }),
    chooseMethod: (method: ChosenMethod) => send({ type: 'METHOD_CHOSEN', method }),
    pay: () => send({ type: 'PAY_CLICKED' }),
    retry: () => send({ type: 'RETRY_CLICKED' }),
    choosePlanOption: (option: string) => send({ type: 'PLAN_OPTION_CHOSEN', option }),
    choosePlanCard: (card: string) => send({ type: 'PLAN_CARD_CHOSEN', card }),
    togglePlanDefault: () => send({ type: 'PLAN_DEFAULT_TOGGLED' }),
    changeCode: (value: string) => send({ type: 'CODE_CHANGED', value }),
    verify: () => send({ type: 'VERIFY_CLICKED' }),
    resend: () => send({ type: 'RESEND_CLICKED' }),
    useAnotherEmail: () => send({ type: 'SIGN_IN_CANCELLED' }),
  };
}
