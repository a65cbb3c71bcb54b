import { describe, expect, it } from 'vitest';
import { exactly, walk, type Expectation, type WalkEvent } from '../testing/walk';
import { viewPayment, type PaymentView } from './payment.connect';
import { paymentMachine } from './payment.machine';
import { holdLost, refused, type CallFailure } from '../../contract/outcome';
import type { PaymentSituation } from './payment.types';

/* ---------- the spec's words (spec 001 §2, §5, §8) ---------- */

const TITLE = {
  payment: 'Payment',
  express: 'Complete purchase',
  paying: 'Confirming Payment',
  free: 'Claiming free tickets',
};
const SAAS =
  'We currently are unable to take payments for this basket as the payment integration has not yet been configured by Moonlight Screenings';
const TEXT = {
  checkout: 'Unable to get Checkout data. Please try again later',
  claim: 'Unable to claim free tickets. Please try again later',
  address: 'We were unable to find your address. Please try a different address',
  completeAddress: 'Please complete your address',
  postcode: 'Type your postcode or zip code',
  phone: 'Type a valid phone number',
  email: 'Type a valid email address',
  fullName: 'Type both your first and last name(s)',
  token: 'Unable to get Stripe token. Please try again later',
  redirect: 'There was an error with taking you to Stripe. Please try again.',
  unableToPay: 'Unable to pay. Please try again later',
  chooseMethod: 'Choose how you would like to pay',
  truelayer: 'There was an error with taking you to Truelayer. Please try again.',
};
const AUTH_URL = '/sandbox/bank/?token=t0k3n';
const DECLINED = 'Your card was declined.';
/** Spec 001 §2: the method choice. */
const LABELS: Record<string, string> = {
  truelayer: 'Instant Bank Transfer',
  stripe: 'Credit or Debit Card',
  square: 'Credit or Debit Card',
  instalment: 'Set up a payment plan',
};
/** Spec 001 §8 (instalment, Square) and the plan form's prompts. */
const PLAN_TEXT = {
  error: 'There was an error with your payment. Please try again.',
  option: 'Choose a payment plan',
  card: 'Choose a card for your payments',
};
const SQUARE_CREDENTIALS = 'Unable to get Square credentials. Please try again later';
const HELD = 'Your tickets are no longer held for you. Please reserve them again.';
/** Not in the spec: express details naming an account, and the code sign-in they lead to. */
const SIGN_IN = {
  existing:
    'There is already an account with this email address. To buy with it, sign in with the one-time code we email to it.',
  sendFailed: 'Unable to send the code. Please try again later',
  checkFailed: 'Unable to check the code. Please try again later',
  wrong: 'That code is not right. Please check it and try again.',
  tooMany: 'Too many codes were asked for this address. Please try again later.',
};

const NO_FLAGS = { truelayer: false, stripe: false, square: false, instalment: false };
const EMPTY_ADDRESS = {
  first_name: '',
  last_name: '',
  address_1: '',
  address_2: '',
  town: '',
  postcode: '',
  state: '',
  country_code: 'GB',
};
/** The billing form (the address chart, a child) starts empty, in the UK, when the sale knows no address. */
const EMPTY_START = {
  selected: 'new' as const,
  fields: {
    first_name: '',
    last_name: '',
    address_1: '',
    address_2: '',
    town: '',
    postcode: '',
    country: '1',
    state: '',
  },
};
/** What the billing form gives back when Pay finds it valid. */
const GIVEN = {
  address: {
    selected_user_address_id: 'new',
    first_name: 'Ann',
    last_name: 'Lee',
    address_1: '4 Mill Lane',
    address_2: '',
    town: 'Cirencester',
    postcode: 'GL7 1AB',
    country: '1',
    state: '',
  },
};
const BILLED = {
  ...EMPTY_ADDRESS,
  first_name: 'Ann',
  last_name: 'Lee',
  address_1: '4 Mill Lane',
  town: 'Cirencester',
  postcode: 'GL7 1AB',
  id: 1,
};
const ASK_ADDRESS = { type: 'CONTINUE_CLICKED', giftVouchers: false };

/* ---------- the sales the walk meets ---------- */

const base: PaymentSituation = {
  paid: false,
  blockedBy: null,
  free: false,
  express: false,
  phoneRequired: false,
  offered: ['stripe'],
  autoMethod: 'stripe',
  marketingOrganisers: [],
  email: '',
  paymentError: null,
  planOptions: [],
};
const SITUATIONS: Record<string, PaymentSituation> = {
  paid: { ...base, paid: true },
  blocked: { ...base, blockedBy: 'Moonlight Screenings' },
  free: { ...base, free: true, email: 'ann@example.com' },
  card: base,
  express: { ...base, express: true, marketingOrganisers: [{ id: 3, message: 'News from the Lantern' }] },
  // Two methods and a required phone: nothing is chosen for the buyer; a returning decline is shown.
  choice: {
    ...base,
    offered: ['truelayer', 'stripe'],
    autoMethod: 'none',
    phoneRequired: true,
    paymentError: DECLINED,
  },
  // A plan on offer beside the card (spec 001 §4: nothing chosen for the buyer when there is a plan).
  plan: { ...base, offered: ['stripe', 'instalment'], autoMethod: 'none', planOptions: ['2', '3'] },
  // The organiser's provider is Square: Square is chosen (spec 001 §4).
  square: { ...base, offered: ['square'], autoMethod: 'square' },
};
const nameOf = (s: PaymentSituation) => Object.entries(SITUATIONS).find(([, v]) => v === s)?.[0] ?? 'none';

/** Spec 001 §5, for the values the walk types. */
const VALID = {
  fullName: new Set(['Ann Lee']),
  email: new Set(['ann@example.com']),
  contactNumber: new Set(['07700 900123']),
};

const TOKEN = { public_key: 'pk_sandbox_holdfast', client_secret: 'pi_1_secret_2' };

type Form = PaymentView['form'];

/** set_billing_address's answer without its id. */
function withoutId({ id: _id, ...address }: typeof BILLED) {
  return address;
}

/** The problems of spec 001 §5 for a form, worked out from the table above. */
function expectedProblems(form: Form, s: PaymentSituation, method: string): Record<string, string> {
  const p: Record<string, string> = {};
  if (s.express) {
    if (!VALID.fullName.has(form.fullName)) p.fullName = TEXT.fullName;
    if (!VALID.email.has(form.email)) p.email = TEXT.email;
  }
  if ((s.phoneRequired || form.contactNumber !== '') && !VALID.contactNumber.has(form.contactNumber))
    p.contactNumber = TEXT.phone;
  if (!(s.offered as string[]).includes(method)) p.method = TEXT.chooseMethod;
  else if (method === 'instalment') {
    // Spec 001 §5: an option (never '1'), a valid phone and a card.
    if (!form.plan.option || !s.planOptions.includes(form.plan.option)) p.planOption = PLAN_TEXT.option;
    if (!VALID.contactNumber.has(form.contactNumber)) p.contactNumber = TEXT.phone;
    if (!form.plan.card) p.planCard = PLAN_TEXT.card;
  }
  return p;
}

describe('payment machine', () => {
  it('is walked at 100 %: paid, blocked, free, and details then card, with every failure reset', async () => {
    const result = await walk<PaymentView>({
      name: 'payment',
      machine: paymentMachine,
      fakes: (kit) => ({
        actors: {
          loadPayment: kit.controlled(),
          claimFreeTickets: kit.controlled(),
          setAccountDetails: kit.controlled(),
          setBillingAddress: kit.controlled(),
          getStripeToken: kit.controlled(),
          confirmCard: kit.controlled(),
          sendOneTimeCode: kit.controlled(),
          checkOneTimeCode: kit.controlled(),
          payWithTruelayer: kit.controlled(),
          instalment: kit.controlled(),
          square: kit.controlled(),
          billingAddress: kit.recorder('billingAddress'),
        },
        actions: { goToBank: kit.spy('goToBank') },
      }),
      askIgnored: true,
      // The form's values matter only as far as the rules see them.
      serializeState: (s) => {
        const c = s.context as {
          situation: PaymentSituation | null;
          method: string;
          problems: object;
          error: string | null;
          paying: object;
          form: Form;
          signIn: object | null;
        };
        return JSON.stringify({
          value: s.value,
          s: c.situation ? nameOf(c.situation) : null,
          method: c.method,
          problems: Object.keys(c.problems).sort(),
          error: c.error,
          paying: c.paying,
          valid: c.situation ? Object.keys(expectedProblems(c.form, c.situation, c.method)).sort() : null,
          signIn: c.signIn,
        });
      },
      events: {
        'xstate.done.actor.loadPayment': Object.values(SITUATIONS).map((output) => ({
          type: 'xstate.done.actor.loadPayment',
          output,
        })),
        'xstate.error.actor.loadPayment': [{ type: 'xstate.error.actor.loadPayment', error: new Error('offline') }],
        'xstate.done.actor.claimFreeTickets': [
          { type: 'xstate.done.actor.claimFreeTickets', output: { success: true } },
        ],
        'xstate.error.actor.claimFreeTickets': [
          { type: 'xstate.error.actor.claimFreeTickets', error: new Error('500') },
        ],
        ADDRESS_GIVEN: [{ type: 'ADDRESS_GIVEN', outcome: GIVEN }],
        FIELD_CHANGED: [
          { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
          { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
          { type: 'FIELD_CHANGED', field: 'contactNumber', value: '12ab' },
          { type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' },
        ],
        FIELD_LEFT: [
          { type: 'FIELD_LEFT', field: 'contactNumber' },
          { type: 'FIELD_LEFT', field: 'email' },
        ],
        ORGANISER_TOGGLED: [{ type: 'ORGANISER_TOGGLED', organiserId: 3 }],
        METHOD_CHOSEN: [
          { type: 'METHOD_CHOSEN', method: 'stripe' },
          { type: 'METHOD_CHOSEN', method: 'instalment' },
          { type: 'METHOD_CHOSEN', method: 'truelayer' },
        ],
        'xstate.done.actor.payWithTruelayer': [
          { type: 'xstate.done.actor.payWithTruelayer', output: { auth_url: AUTH_URL } },
        ],
        'xstate.error.actor.payWithTruelayer': [
          { type: 'xstate.error.actor.payWithTruelayer', error: new Error('500') },
        ],
        PLAN_OPTION_CHOSEN: [{ type: 'PLAN_OPTION_CHOSEN', option: '3' }],
        PLAN_CARD_CHOSEN: [{ type: 'PLAN_CARD_CHOSEN', card: 'new' }],
        PLAN_DEFAULT_TOGGLED: [{ type: 'PLAN_DEFAULT_TOGGLED' }],
        'xstate.done.actor.instalment': [
          { type: 'xstate.done.actor.instalment', output: { kind: 'paid' } },
          { type: 'xstate.done.actor.instalment', output: { kind: 'failed', message: PLAN_TEXT.error } },
          { type: 'xstate.done.actor.instalment', output: { kind: 'holdLost', message: HELD } },
        ],
        'xstate.done.actor.square': [
          { type: 'xstate.done.actor.square', output: { kind: 'paid' } },
          { type: 'xstate.done.actor.square', output: { kind: 'failed', message: SQUARE_CREDENTIALS } },
          { type: 'xstate.done.actor.square', output: { kind: 'holdLost', message: HELD } },
        ],
        'xstate.done.actor.setAccountDetails': [
          { type: 'xstate.done.actor.setAccountDetails', output: { success: true } },
        ],
        'xstate.error.actor.setAccountDetails': [
          { type: 'xstate.error.actor.setAccountDetails', error: holdLost(HELD) },
          { type: 'xstate.error.actor.setAccountDetails', error: refused(SIGN_IN.existing, 'sign_in') },
          { type: 'xstate.error.actor.setAccountDetails', error: new Error(TEXT.email) },
          { type: 'xstate.error.actor.setAccountDetails', error: new Error('') },
        ],
        'xstate.done.actor.setBillingAddress': [{ type: 'xstate.done.actor.setBillingAddress', output: BILLED }],
        'xstate.error.actor.setBillingAddress': [
          { type: 'xstate.error.actor.setBillingAddress', error: holdLost(HELD) },
          { type: 'xstate.error.actor.setBillingAddress', error: new Error(TEXT.address) },
        ],
        'xstate.done.actor.getStripeToken': [{ type: 'xstate.done.actor.getStripeToken', output: TOKEN }],
        'xstate.error.actor.getStripeToken': [{ type: 'xstate.error.actor.getStripeToken', error: new Error('500') }],
        'xstate.done.actor.confirmCard': [
          { type: 'xstate.done.actor.confirmCard', output: { status: 'succeeded' } },
          { type: 'xstate.done.actor.confirmCard', output: { status: 'failed', message: DECLINED } },
          { type: 'xstate.done.actor.confirmCard', output: { status: 'failed', message: null } },
        ],
        'xstate.error.actor.confirmCard': [{ type: 'xstate.error.actor.confirmCard', error: new Error('no Stripe') }],
        'xstate.done.actor.sendOneTimeCode': [{ type: 'xstate.done.actor.sendOneTimeCode', output: undefined }],
        'xstate.error.actor.sendOneTimeCode': [
          { type: 'xstate.error.actor.sendOneTimeCode', error: new Error(SIGN_IN.tooMany) },
          { type: 'xstate.error.actor.sendOneTimeCode', error: new Error('') },
        ],
        CODE_CHANGED: [
          { type: 'CODE_CHANGED', value: '12 34a5' },
          { type: 'CODE_CHANGED', value: '1234567' },
        ],
        VERIFY_CLICKED: [{ type: 'VERIFY_CLICKED' }],
        RESEND_CLICKED: [{ type: 'RESEND_CLICKED' }],
        SIGN_IN_CANCELLED: [{ type: 'SIGN_IN_CANCELLED' }],
        'xstate.done.actor.checkOneTimeCode': [{ type: 'xstate.done.actor.checkOneTimeCode', output: undefined }],
        'xstate.error.actor.checkOneTimeCode': [
          { type: 'xstate.error.actor.checkOneTimeCode', error: holdLost(HELD) },
          { type: 'xstate.error.actor.checkOneTimeCode', error: new Error(SIGN_IN.wrong) },
          { type: 'xstate.error.actor.checkOneTimeCode', error: new Error('') },
        ],
      },
      view: (snapshot) => viewPayment(snapshot as never),
      initial: () => ({
        view: { loading: true, title: TITLE.payment, showForm: false },
        running: ['loadPayment'],
        started: { loadPayment: [undefined] },
      }),
      oracle: ({ event, view, earlier, unchanged }): Expectation<PaymentView> | undefined => {
        // A refused token reads the sale again (was it paid in another tab?): that read is not a new situation.
        const LOADISH = [
          'xstate.error.actor.getStripeToken',
          'xstate.done.actor.loadPayment',
          'xstate.error.actor.loadPayment',
        ];
        const loadish = earlier.filter((e) => LOADISH.includes(e.event.type));
        const rechecking = loadish.at(-1)?.event.type === 'xstate.error.actor.getStripeToken';
        const loads = loadish.filter(
          (e, i) =>
            e.event.type === 'xstate.done.actor.loadPayment' &&
            loadish[i - 1]?.event.type !== 'xstate.error.actor.getStripeToken',
        );
        const s = (loads.at(-1)?.event.output as PaymentSituation | undefined) ?? null;
        const formShown = view.showForm && !view.paying;
        /** The billing address form runs beside a non-express buyer's payment form. */
        const addressForm = s && !s.express ? ['billingAddress'] : [];
        const here = formShown ? addressForm : [];
        /** A reset (spec 001 §4): every flag and the method cleared (a sole method chosen again), the error shown; the billing form starts from what was given. */
        const reset = (message: string): Expectation<PaymentView> => ({
          view: {
            paying: false,
            showForm: true,
            payingFlags: NO_FLAGS,
            method: s!.autoMethod,
            error: message,
            title: s!.express ? TITLE.express : TITLE.payment,
            billing: s!.express ? null : view.billing,
          },
          running: addressForm,
        });
        const paid: Expectation<PaymentView> = { view: {}, running: [], output: { kind: 'paid' } };
        switch (event.type) {
          case 'xstate.done.actor.loadPayment': {
            const next = event.output as PaymentSituation;
            if (next.paid) return paid;
            if (rechecking) return reset(TEXT.token);
            if (next.blockedBy) return { view: { loading: false, blocked: SAAS, showForm: false }, running: [] };
            if (next.free) {
              return {
                view: { loading: false, claiming: true, free: true, title: TITLE.free, showForm: false },
                running: ['claimFreeTickets'],
                started: { claimFreeTickets: [{ email: next.email }] },
              };
            }
            return {
              view: {
                loading: false,
                showForm: true,
                free: false,
                paying: false,
                express: next.express,
                phoneRequired: next.phoneRequired,
                title: next.express ? TITLE.express : TITLE.payment,
                method: next.autoMethod,
                error: next.paymentError,
                problems: exactly({}),
                payingFlags: NO_FLAGS,
                form: {
                  fullName: '',
                  email: next.email,
                  contactNumber: '',
                  newsletter: false,
                  plan: { option: null, card: null, makeDefault: true },
                },
                billing: next.express ? null : EMPTY_START,
                planOptions: next.planOptions,
                methods: next.offered.map((method) => ({
                  method,
                  label: LABELS[method]!,
                  chosen: method === next.autoMethod,
                })),
              },
              running: next.express ? [] : ['billingAddress'],
            };
          }
          case 'xstate.error.actor.loadPayment':
            if (rechecking) return reset(TEXT.token);
            return { view: { loading: false, canRetry: true, error: TEXT.checkout, showForm: false }, running: [] };
          case 'RETRY_CLICKED':
            if (!view.canRetry) return unchanged();
            if (view.title === TITLE.free) {
              return {
                view: { claiming: true, error: null, canRetry: false },
                running: ['claimFreeTickets'],
                started: { claimFreeTickets: [{ email: s!.email }] },
              };
            }
            return {
              view: { loading: true, error: null, canRetry: false },
              running: ['loadPayment'],
              started: { loadPayment: [undefined] },
            };
          case 'xstate.done.actor.claimFreeTickets':
            return paid;
          case 'xstate.error.actor.claimFreeTickets':
            return { view: { claiming: false, canRetry: true, error: TEXT.claim, title: TITLE.free }, running: [] };
          case 'FIELD_LEFT': {
            // Spec 001 §5's message for what was typed shows when the field is left; an empty field waits for Pay.
            if (!formShown) return unchanged();
            const field = event.field as keyof Form & string;
            const typed = String(view.form[field as 'email' | 'contactNumber']).trim();
            const problem = typed === '' ? undefined : expectedProblems(view.form, s!, view.method)[field];
            if (!problem) return unchanged();
            return {
              view: { problems: exactly({ ...view.problems, [field]: problem }), form: view.form },
              running: here,
            };
          }
          case 'FIELD_CHANGED': {
            if (!formShown) return unchanged();
            const field = event.field as string;
            const form = { ...view.form, [field]: event.value as string };
            const problems = Object.fromEntries(Object.entries(view.problems).filter(([k]) => k !== field));
            return {
              view: { form, problems: exactly(problems), error: view.error, method: view.method },
              running: here,
            };
          }
          case 'ORGANISER_TOGGLED': {
            if (!formShown) return unchanged();
            const checked = !(view.form.organisers['3'] ?? false);
            return {
              view: { form: { ...view.form, organisers: { ...view.form.organisers, '3': checked } } },
              running: here,
            };
          }
          case 'PLAN_OPTION_CHOSEN':
          case 'PLAN_CARD_CHOSEN': {
            if (!formShown) return unchanged();
            const key = event.type === 'PLAN_OPTION_CHOSEN' ? 'option' : 'card';
            const field = event.type === 'PLAN_OPTION_CHOSEN' ? 'planOption' : 'planCard';
            const value = (event.type === 'PLAN_OPTION_CHOSEN' ? event.option : event.card) as string;
            const problems = Object.fromEntries(Object.entries(view.problems).filter(([k]) => k !== field));
            return {
              view: { form: { ...view.form, plan: { ...view.form.plan, [key]: value } }, problems: exactly(problems) },
              running: here,
            };
          }
          case 'PLAN_DEFAULT_TOGGLED':
            if (!formShown) return unchanged();
            return {
              view: { form: { ...view.form, plan: { ...view.form.plan, makeDefault: !view.form.plan.makeDefault } } },
              running: here,
            };
          case 'NEWSLETTER_TOGGLED':
            if (!formShown) return unchanged();
            return { view: { form: { ...view.form, newsletter: !view.form.newsletter } }, running: here };
          case 'METHOD_CHOSEN': {
            if (!formShown) return unchanged();
            const { method: _gone, ...problems } = view.problems;
            return {
              view: { method: event.method as PaymentView['method'], problems: exactly(problems) },
              running: here,
            };
          }
          case 'PAY_CLICKED': {
            if (!formShown) return unchanged();
            const problems = expectedProblems(view.form, s!, view.method);
            // The billing address form checks itself, whatever the rest needs: it is asked on every Pay.
            if (!s!.express)
              return {
                view: { problems: exactly(problems), paying: false, form: view.form },
                running: here,
                sent: { billingAddress: [ASK_ADDRESS] },
              };
            if (Object.keys(problems).length > 0)
              return { view: { problems: exactly(problems), paying: false, form: view.form }, running: [] };
            const flags = { ...NO_FLAGS, [view.method]: true };
            const paying = {
              paying: true,
              title: TITLE.paying,
              payingFlags: flags,
              problems: exactly({}),
              error: null,
            };
            const phone = view.form.contactNumber ? { contact_number: view.form.contactNumber } : {};
            return {
              view: paying,
              running: ['setAccountDetails'],
              started: {
                setAccountDetails: [
                  {
                    fullname: view.form.fullName,
                    email: view.form.email,
                    ...phone,
                    organiser_subscribed_marketing: { '3': String(view.form.organisers['3'] ?? false) },
                    ct_subscribed: String(view.form.newsletter),
                  },
                ],
              },
            };
          }
          case 'ADDRESS_GIVEN': {
            // Only the billing form gives an address, and it runs beside a non-express buyer's form.
            if (!formShown || s!.express) return unchanged();
            const { selected_user_address_id: _new, ...fields } = GIVEN.address;
            const problems = expectedProblems(view.form, s!, view.method);
            if (Object.keys(problems).length > 0)
              return { view: { paying: false, billing: { selected: 'new', fields } }, running: here };
            const phone = view.form.contactNumber ? { contact_number: view.form.contactNumber } : {};
            return {
              view: {
                paying: true,
                title: TITLE.paying,
                payingFlags: { ...NO_FLAGS, [view.method]: true },
                problems: exactly({}),
                error: null,
                billing: { selected: 'new', fields },
              },
              running: ['setBillingAddress'],
              started: { setBillingAddress: [{ address: GIVEN.address, ...phone }] },
            };
          }
          case 'xstate.done.actor.setAccountDetails':
          case 'xstate.done.actor.setBillingAddress':
            // Bank transfer: pay_with_truelayer with the contact number, not the card's token.
            if (view.method === 'truelayer') {
              const phone = view.form.contactNumber ? { contact_number: view.form.contactNumber } : {};
              return {
                view: { paying: true, title: TITLE.paying, payingFlags: { ...NO_FLAGS, truelayer: true } },
                running: ['payWithTruelayer'],
                started: { payWithTruelayer: [phone] },
              };
            }
            // The chosen method takes over: a plan, Square, or the card's token.
            if (view.method === 'instalment') {
              const plan = {
                option: view.form.plan.option,
                contactNumber: view.form.contactNumber,
                card: view.form.plan.card,
                makeDefault: view.form.plan.makeDefault,
              };
              return {
                view: { paying: true, title: TITLE.paying },
                running: ['instalment'],
                started: { instalment: [plan] },
              };
            }
            // Square is given the billing address as the server took it (none for an express buyer).
            if (view.method === 'square') {
              const address =
                event.type === 'xstate.done.actor.setBillingAddress'
                  ? withoutId(event.output as typeof BILLED)
                  : EMPTY_ADDRESS;
              return {
                view: { paying: true, title: TITLE.paying },
                running: ['square'],
                started: { square: [{ address }] },
              };
            }
            return {
              view: { paying: true, title: TITLE.paying },
              running: ['getStripeToken'],
              started: { getStripeToken: [undefined] },
            };
          case 'xstate.done.actor.instalment':
          case 'xstate.done.actor.square': {
            const output = event.output as { kind: string; message?: string };
            if (output.kind === 'paid') return paid;
            if (output.kind === 'holdLost')
              return { view: {}, running: [], output: { kind: 'holdLost', message: HELD } };
            return reset(output.message!);
          }
          case 'xstate.error.actor.setAccountDetails':
          case 'xstate.error.actor.setBillingAddress': {
            const error = event.error as CallFailure | Error;
            // A failure body with an error: back to the basket with it as the reserving error.
            if ('kind' in error && error.kind === 'holdLost')
              return { view: {}, running: [], output: { kind: 'holdLost', message: HELD } };
            // The e-mail has an account: a reset, and a code is sent to that address for the buyer to type.
            if ('kind' in error && error.kind === 'refused' && error.reason === 'sign_in') {
              const email = view.form.email;
              return {
                view: {
                  paying: false,
                  showForm: false,
                  payingFlags: NO_FLAGS,
                  method: s!.autoMethod,
                  error: SIGN_IN.existing,
                  signIn: { email, code: '', error: null, busy: true, canVerify: false },
                },
                running: ['sendOneTimeCode'],
                started: { sendOneTimeCode: [{ email }] },
              };
            }
            if (event.type === 'xstate.error.actor.setBillingAddress') return reset(TEXT.address);
            return reset(error.message || TEXT.unableToPay);
          }
          case 'xstate.done.actor.getStripeToken':
            return {
              view: { paying: true, title: TITLE.paying },
              running: ['confirmCard'],
              started: { confirmCard: [TOKEN] },
            };
          case 'xstate.error.actor.getStripeToken':
            return {
              view: { paying: true, title: TITLE.paying },
              running: ['loadPayment'],
              started: { loadPayment: [undefined] },
            };
          case 'xstate.done.actor.confirmCard': {
            const output = event.output as { status: string; message?: string | null };
            if (output.status === 'succeeded') return paid;
            // The provider's message is shown as the payment error.
            return reset(output.message ?? TEXT.unableToPay);
          }
          case 'xstate.error.actor.confirmCard':
            return reset(TEXT.redirect);
          case 'xstate.done.actor.payWithTruelayer':
            // The browser goes to auth_url; the screen stays on 'Confirming Payment' meanwhile.
            return {
              view: { paying: true, title: TITLE.paying },
              running: [],
              sent: { goToBank: [{ url: AUTH_URL }] },
            };
          case 'xstate.error.actor.payWithTruelayer':
            return reset(TEXT.truelayer);
          case 'xstate.done.actor.sendOneTimeCode':
            return {
              view: { signIn: { ...view.signIn!, busy: false, canVerify: false }, error: SIGN_IN.existing },
              running: [],
            };
          case 'xstate.error.actor.sendOneTimeCode': {
            const message = (event.error as Error).message || SIGN_IN.sendFailed;
            return {
              view: { signIn: { ...view.signIn!, code: '', error: message, busy: false, canVerify: false } },
              running: [],
            };
          }
          case 'CODE_CHANGED': {
            if (!view.signIn || view.signIn.busy) return unchanged();
            // Digits only, at most six.
            const code = (event.value as string).replace(/\D/g, '').slice(0, 6);
            return {
              view: { signIn: { ...view.signIn, code, error: null, canVerify: code.length === 6 } },
              running: [],
            };
          }
          case 'VERIFY_CLICKED': {
            if (!view.signIn?.canVerify) return unchanged();
            const { email, code } = view.signIn;
            return {
              view: { signIn: { ...view.signIn, busy: true, canVerify: false } },
              running: ['checkOneTimeCode'],
              started: { checkOneTimeCode: [{ email, code }] },
            };
          }
          case 'RESEND_CLICKED':
            if (!view.signIn || view.signIn.busy) return unchanged();
            return {
              view: { signIn: { ...view.signIn, code: '', error: null, busy: true, canVerify: false } },
              running: ['sendOneTimeCode'],
              started: { sendOneTimeCode: [{ email: view.signIn.email }] },
            };
          case 'SIGN_IN_CANCELLED':
            if (!view.signIn || view.signIn.busy) return unchanged();
            // Back to the details, as typed, to give another e-mail.
            return {
              view: { signIn: null, showForm: true, paying: false, error: null, form: view.form },
              running: addressForm,
            };
          case 'xstate.done.actor.checkOneTimeCode':
            // Signed in: the step is read again, now as the account's (no longer express).
            return {
              view: { signIn: null, loading: true, showForm: false },
              running: ['loadPayment'],
              started: { loadPayment: [undefined] },
            };
          case 'xstate.error.actor.checkOneTimeCode': {
            const error = event.error as CallFailure | Error;
            if ('kind' in error && error.kind === 'holdLost')
              return { view: {}, running: [], output: { kind: 'holdLost', message: HELD } };
            return {
              view: {
                signIn: {
                  ...view.signIn!,
                  code: '',
                  error: error.message || SIGN_IN.checkFailed,
                  busy: false,
                  canVerify: false,
                },
              },
              running: [],
            };
          }
        }
        return undefined;
      },
      check: ({ after }) => {
        // Pay is enabled for a plan only with an option, a valid phone and a card (spec 001 §5).
        const v = viewPayment(after as never);
        const s = (after.context as { situation: PaymentSituation | null }).situation;
        if (!s) return;
        const planReady =
          !!v.form.plan.option &&
          s.planOptions.includes(v.form.plan.option) &&
          VALID.contactNumber.has(v.form.contactNumber) &&
          !!v.form.plan.card;
        // Compared without expect(): this runs after every step of every path.
        const payable = v.method !== 'instalment' || planReady;
        if (v.canPay !== payable)
          throw new Error(
            `Pay is ${v.canPay ? 'enabled' : 'disabled'}; expected it ${payable ? 'enabled' : 'disabled'}`,
          );
      },
      paths: {
        unreachable: [
          {
            why:
              'whether the buyer gives an express buyer’s details or a billing address is the checkout’s, read as the step loads; ' +
              'a route loads once (a sign-in reads the step again only by going back to loading), so it never meets both',
            matches: ({ moves }) =>
              moves.some((m) => m.to === '{"ready":"account"}') && moves.some((m) => m.to === '{"ready":"billing"}'),
          },
        ],
      },
      extraPaths: [
        // A plan: Pay waits for an option, a phone and a card, then the plan's chart takes over.
        {
          events: [
            { type: 'xstate.done.actor.loadPayment', output: SITUATIONS.plan },
            { type: 'METHOD_CHOSEN', method: 'instalment' },
            { type: 'PAY_CLICKED' },
            { type: 'PLAN_OPTION_CHOSEN', option: '3' },
            { type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' },
            { type: 'PLAN_CARD_CHOSEN', card: 'new' },
            { type: 'PLAN_DEFAULT_TOGGLED' },
            { type: 'PAY_CLICKED' },
            { type: 'ADDRESS_GIVEN', outcome: GIVEN },
            { type: 'xstate.done.actor.setBillingAddress', output: { ...EMPTY_ADDRESS, postcode: 'GL7 1AB', id: 1 } },
            { type: 'xstate.done.actor.instalment', output: { kind: 'failed', message: PLAN_TEXT.error } },
          ] as WalkEvent[],
        },
        // An express buyer's plan and an express buyer's Square payment: their details first.
        {
          events: [
            {
              type: 'xstate.done.actor.loadPayment',
              output: {
                ...SITUATIONS.plan,
                express: true,
                marketingOrganisers: SITUATIONS.express!.marketingOrganisers,
              },
            },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' },
            { type: 'METHOD_CHOSEN', method: 'instalment' },
            { type: 'PLAN_OPTION_CHOSEN', option: '3' },
            { type: 'PLAN_CARD_CHOSEN', card: 'new' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.done.actor.setAccountDetails', output: { success: true } },
            { type: 'xstate.done.actor.instalment', output: { kind: 'paid' } },
          ] as WalkEvent[],
        },
        {
          events: [
            {
              type: 'xstate.done.actor.loadPayment',
              output: {
                ...SITUATIONS.plan,
                express: true,
                marketingOrganisers: SITUATIONS.express!.marketingOrganisers,
              },
            },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' },
            { type: 'METHOD_CHOSEN', method: 'instalment' },
            { type: 'PLAN_OPTION_CHOSEN', option: '3' },
            { type: 'PLAN_CARD_CHOSEN', card: 'new' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.done.actor.setAccountDetails', output: { success: true } },
            { type: 'xstate.done.actor.instalment', output: { kind: 'holdLost', message: HELD } },
          ] as WalkEvent[],
        },
        {
          events: [
            {
              type: 'xstate.done.actor.loadPayment',
              output: {
                ...SITUATIONS.square,
                express: true,
                marketingOrganisers: SITUATIONS.express!.marketingOrganisers,
              },
            },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.done.actor.setAccountDetails', output: { success: true } },
            { type: 'xstate.done.actor.square', output: { kind: 'paid' } },
          ] as WalkEvent[],
        },
        {
          events: [
            {
              type: 'xstate.done.actor.loadPayment',
              output: {
                ...SITUATIONS.square,
                express: true,
                marketingOrganisers: SITUATIONS.express!.marketingOrganisers,
              },
            },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.done.actor.setAccountDetails', output: { success: true } },
            { type: 'xstate.done.actor.square', output: { kind: 'holdLost', message: HELD } },
          ] as WalkEvent[],
        },
        // Square chosen for the buyer: details, then Square's chart.
        {
          events: [
            { type: 'xstate.done.actor.loadPayment', output: SITUATIONS.square },
            { type: 'PAY_CLICKED' },
            { type: 'ADDRESS_GIVEN', outcome: GIVEN },
            { type: 'xstate.done.actor.setBillingAddress', output: { ...EMPTY_ADDRESS, postcode: 'GL7 1AB', id: 1 } },
            { type: 'xstate.done.actor.square', output: { kind: 'paid' } },
          ] as WalkEvent[],
        },
        // The express buyer's full journey: name, e-mail, a marketing box, then the card.
        {
          events: [
            { type: 'xstate.done.actor.loadPayment', output: SITUATIONS.express },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'ORGANISER_TOGGLED', organiserId: 3 },
            { type: 'NEWSLETTER_TOGGLED' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.done.actor.setAccountDetails', output: { success: true } },
            { type: 'xstate.done.actor.getStripeToken', output: TOKEN },
            { type: 'xstate.done.actor.confirmCard', output: { status: 'succeeded' } },
          ] as WalkEvent[],
        },
        // An express buyer pays by bank transfer: name and e-mail saved, then the bank's page.
        {
          events: [
            {
              type: 'xstate.done.actor.loadPayment',
              output: { ...SITUATIONS.express, offered: ['truelayer', 'stripe'], autoMethod: 'none' },
            },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'METHOD_CHOSEN', method: 'truelayer' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.done.actor.setAccountDetails', output: { success: true } },
            { type: 'xstate.done.actor.payWithTruelayer', output: { auth_url: AUTH_URL } },
          ] as WalkEvent[],
        },
        // The e-mail has an account: its code, a wrong one first, signs the buyer in and the step is read again.
        {
          events: [
            { type: 'xstate.done.actor.loadPayment', output: SITUATIONS.express },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.error.actor.setAccountDetails', error: refused(SIGN_IN.existing, 'sign_in') },
            { type: 'VERIFY_CLICKED' },
            { type: 'xstate.done.actor.sendOneTimeCode', output: undefined },
            { type: 'CODE_CHANGED', value: '12 34a5' },
            { type: 'VERIFY_CLICKED' },
            { type: 'CODE_CHANGED', value: '1234567' },
            { type: 'VERIFY_CLICKED' },
            { type: 'xstate.error.actor.checkOneTimeCode', error: new Error(SIGN_IN.wrong) },
            { type: 'CODE_CHANGED', value: '1234567' },
            { type: 'VERIFY_CLICKED' },
            { type: 'xstate.done.actor.checkOneTimeCode', output: undefined },
            { type: 'xstate.done.actor.loadPayment', output: SITUATIONS.card },
          ] as WalkEvent[],
        },
        // A send refused, sent again, then another e-mail instead.
        {
          events: [
            { type: 'xstate.done.actor.loadPayment', output: SITUATIONS.express },
            { type: 'FIELD_CHANGED', field: 'fullName', value: 'Ann Lee' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
            { type: 'PAY_CLICKED' },
            { type: 'xstate.error.actor.setAccountDetails', error: refused(SIGN_IN.existing, 'sign_in') },
            { type: 'xstate.error.actor.sendOneTimeCode', error: new Error(SIGN_IN.tooMany) },
            { type: 'RESEND_CLICKED' },
            { type: 'xstate.done.actor.sendOneTimeCode', output: undefined },
            { type: 'SIGN_IN_CANCELLED' },
            { type: 'FIELD_CHANGED', field: 'email', value: 'ann@example.com' },
          ] as WalkEvent[],
        },
        // Two methods: one must be chosen; a required phone must be valid.
        {
          events: [
            { type: 'xstate.done.actor.loadPayment', output: SITUATIONS.choice },
            { type: 'PAY_CLICKED' },
            { type: 'ADDRESS_GIVEN', outcome: GIVEN },
            { type: 'METHOD_CHOSEN', method: 'stripe' },
            { type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' },
            { type: 'PAY_CLICKED' },
            { type: 'ADDRESS_GIVEN', outcome: GIVEN },
            { type: 'xstate.error.actor.setBillingAddress', error: new Error(TEXT.address) },
          ] as WalkEvent[],
        },
      ],
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
    // Over 12,000 paths: allowed minutes on a busy machine, as the root's walk is.
  }, 300_000);
});
