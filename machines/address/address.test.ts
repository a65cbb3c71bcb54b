import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  addressProblems,
  type AddressFields,
  type AddressStart,
  type PossibleAddress,
  type SavedAddress,
} from '../../contract';
import { walk, type ChartRoute, type Expectation, type OracleQuestion, type WalkEvent } from '../testing/walk';
import { viewAddress, type AddressView } from './address.connect';
import { addressMachine } from './address.machine';

/* ---------- the rules, written again from the spec ---------- */

/** Spec 001 §8: the notification of a failed set_delivery_address; §8 the billing failure. */
const UNABLE_DELIVERY = 'Unable to set the delivery Address. Please try again later';
const UNABLE_BILLING = 'We were unable to find your address. Please try a different address';

type Purpose = 'delivery' | 'billing';
interface Case {
  purpose: Purpose;
  giftVouchers: boolean;
}

const fields = (over: Partial<AddressFields>): AddressFields => ({
  first_name: '',
  last_name: '',
  address_1: '',
  address_2: '',
  town: '',
  postcode: '',
  country: '1',
  state: '',
  ...over,
});
/**
 * Where the form may start (the payment step's billing form starts from what the buyer gave
 * before): each a variant of every walk, as the chart takes a start whatever the purpose.
 */
const STARTS: Record<string, AddressStart> = {
  'an address given': {
    selected: 'new',
    fields: fields({
      first_name: 'Ada',
      last_name: 'Lovelace',
      address_1: '1 Quay St',
      town: 'Plymouth',
      postcode: 'PL1 2LD',
    }),
  },
  'a saved address chosen': { selected: 8, fields: fields({ first_name: 'Ada', last_name: 'Lovelace' }) },
};

/**
 * Spec 000 §5 and 001 §5: a saved id, or 'new' with first and last name, line 1, town, postcode
 * and country, plus a state for the USA ('2'); from and to for vouchers on delivery. Billing
 * requires the postcode alone (with the country and a US state), asks for it in its own words and
 * to complete the address ('billing requires postcode').
 */
function missing(
  view: Pick<AddressView, 'selected' | 'fields' | 'giftVoucherFrom' | 'giftVoucherTo'>,
  c: Case,
): Record<string, string> {
  const out: Record<string, string> = {};
  const blank = (s: string) => s.trim() === '';
  if (view.selected === 'new') {
    const f = view.fields;
    if (c.purpose === 'delivery') {
      if (blank(f.first_name)) out.first_name = "Type the recipient's first name";
      if (blank(f.last_name)) out.last_name = "Type the recipient's last name";
      if (blank(f.address_1)) out.address_1 = 'Type the first line of the address';
      if (blank(f.town)) out.town = 'Type the town or city';
    }
    if (blank(f.postcode))
      out.postcode = c.purpose === 'billing' ? 'Type your postcode or zip code' : 'Type the postcode';
    if (blank(f.country)) out.country = 'Choose the country';
    else if (f.country === '2' && blank(f.state)) out.state = 'Choose the state';
  }
  if (c.purpose === 'delivery' && c.giftVouchers) {
    if (blank(view.giftVoucherFrom)) out.gift_voucher_from = 'Who is the gift voucher from?';
    if (blank(view.giftVoucherTo)) out.gift_voucher_to = 'Who is the gift voucher for?';
  }
  if (c.purpose === 'billing' && Object.keys(out).length) out.form = 'Please complete your address';
  return out;
}

function payload(view: AddressView, c: Case) {
  const vouchers =
    c.purpose === 'delivery' && c.giftVouchers
      ? { gift_voucher_from: view.giftVoucherFrom.trim(), gift_voucher_to: view.giftVoucherTo.trim() }
      : {};
  if (view.selected !== 'new') return { address: { selected_user_address_id: String(view.selected) }, ...vouchers };
  const f = view.fields;
  return {
    address: {
      selected_user_address_id: 'new',
      first_name: f.first_name.trim(),
      last_name: f.last_name.trim(),
      address_1: f.address_1.trim(),
      address_2: f.address_2.trim(),
      town: f.town.trim(),
      postcode: f.postcode.trim(),
      country: f.country,
      state: f.country === '2' ? f.state : '',
    },
    ...vouchers,
  };
}

/* ---------- what the walk offers ---------- */

const SAVED: SavedAddress[] = [
  {
    id: 7,
    first_name: 'Amelia',
    last_name: 'Hughes',
    full_address: '14 Quay Street, Bristol, BS1 4RN, United Kingdom',
  },
  { id: 8, first_name: 'Amelia', last_name: 'Hughes', full_address: '3 Park Street, Bristol, BS1 5NT, United Kingdom' },
];
const FOUND: PossibleAddress[] = [
  {
    address_line_1: '12 Quay Street',
    address_line_2: '',
    town: 'Bristol',
    post_code: 'BS1 4RN',
    country: '1',
    state: '',
    formatted_address: '12 Quay Street, Bristol, BS1 4RN',
  },
  {
    address_line_1: '310 Valencia Street',
    address_line_2: '',
    town: 'San Francisco',
    post_code: '94110',
    country: '2',
    state: 'CA',
    formatted_address: '310 Valencia Street, San Francisco, CA, 94110',
  },
];

const events: Record<string, WalkEvent[]> = {
  'xstate.done.actor.loadSavedAddresses': [
    { type: 'xstate.done.actor.loadSavedAddresses', output: SAVED },
    { type: 'xstate.done.actor.loadSavedAddresses', output: [] },
  ],
  'xstate.error.actor.loadSavedAddresses': [
    { type: 'xstate.error.actor.loadSavedAddresses', error: new Error('offline') },
  ],
  SAVED_ADDRESS_CHOSEN: [
    { type: 'SAVED_ADDRESS_CHOSEN', selection: 'new' },
    { type: 'SAVED_ADDRESS_CHOSEN', selection: 8 },
    { type: 'SAVED_ADDRESS_CHOSEN', selection: 99 },
  ],
  DELETE_CLICKED: [
    { type: 'DELETE_CLICKED', addressId: 7 },
    { type: 'DELETE_CLICKED', addressId: 99 },
  ],
  'xstate.done.actor.deleteAddress': [{ type: 'xstate.done.actor.deleteAddress', output: { success: true } }],
  'xstate.error.actor.deleteAddress': [{ type: 'xstate.error.actor.deleteAddress', error: new Error('404') }],
  QUERY_TYPED: [
    { type: 'QUERY_TYPED', text: 'BS' },
    { type: 'QUERY_TYPED', text: ' BS1 4RN ' },
  ],
  FIND_CLICKED: [{ type: 'FIND_CLICKED' }],
  'xstate.done.actor.lookupAddress': [
    { type: 'xstate.done.actor.lookupAddress', output: FOUND },
    { type: 'xstate.done.actor.lookupAddress', output: [] },
  ],
  'xstate.error.actor.lookupAddress': [{ type: 'xstate.error.actor.lookupAddress', error: new Error('timeout') }],
  ADDRESS_PICKED: [
    { type: 'ADDRESS_PICKED', index: 0 },
    { type: 'ADDRESS_PICKED', index: 1 },
    { type: 'ADDRESS_PICKED', index: 5 },
  ],
  ENTER_MANUALLY_CLICKED: [{ type: 'ENTER_MANUALLY_CLICKED' }],
  FIND_AGAIN_CLICKED: [{ type: 'FIND_AGAIN_CLICKED' }],
  FIELD_TYPED: [
    { type: 'FIELD_TYPED', field: 'first_name', value: 'Ada' },
    { type: 'FIELD_TYPED', field: 'last_name', value: 'Lovelace' },
    { type: 'FIELD_TYPED', field: 'postcode', value: '  ' },
    { type: 'FIELD_TYPED', field: 'state', value: '' },
  ],
  FIELD_LEFT: [{ type: 'FIELD_LEFT', field: 'first_name' }],
  VOUCHER_NAME_TYPED: [
    { type: 'VOUCHER_NAME_TYPED', field: 'gift_voucher_from', value: 'Ada' },
    { type: 'VOUCHER_NAME_TYPED', field: 'gift_voucher_to', value: 'Grace' },
  ],
  'xstate.done.actor.submitAddress': [{ type: 'xstate.done.actor.submitAddress', output: { success: true } }],
  'xstate.error.actor.submitAddress': [
    { type: 'xstate.error.actor.submitAddress', error: new Error('Type the postcode') },
    { type: 'xstate.error.actor.submitAddress', error: new Error('') },
  ],
};

/* ---------- the oracle ---------- */

type Q = OracleQuestion<AddressView>;
type Status = AddressView['status'];

/** The buyer's form, as the model keeps it between steps. */
interface Model {
  status: Status;
  savedIds: number[];
  selected: AddressView['selected'];
  query: string;
  possible: PossibleAddress[];
  fields: AddressFields;
  giftVoucherFrom: string;
  giftVoucherTo: string;
  touched: string[];
  tried: boolean;
  problem: string | null;
  deleting: number | null;
  saving: boolean;
}

function modelOf(q: Q): Model {
  const v = q.view;
  const earlier = q.earlier.map((e) => e.event);
  return {
    status: v.status,
    savedIds: v.savedIds,
    selected: v.selected,
    query: v.query,
    possible: v.possible ?? [],
    fields: v.fields,
    giftVoucherFrom: v.giftVoucherFrom,
    giftVoucherTo: v.giftVoucherTo,
    touched: [...new Set(earlier.filter((e) => e.type === 'FIELD_LEFT').map((e) => e.field as string))],
    tried: earlier.some((e) => e.type === 'CONTINUE_CLICKED'),
    problem: v.problem,
    deleting: v.deleting,
    saving: v.saving,
  };
}

/** Picking a found address hides the finder; so does typing the address by hand. */
const FINDER: Status[] = ['new', 'new_user', 'searching', 'found_addresses'];

function expect_(
  m: Model,
  c: Case,
  extra: { started?: Record<string, unknown[]>; sent?: Record<string, unknown[]> } = {},
): Expectation<AddressView> {
  const all = missing(m, c);
  const shown = Object.fromEntries(Object.entries(all).filter(([k]) => m.tried || m.touched.includes(k)));
  const searching = m.status === 'searching';
  const running = [
    ...(searching ? ['lookupAddress'] : []),
    ...(m.deleting !== null ? ['deleteAddress'] : []),
    ...(m.saving ? ['submitAddress'] : []),
  ];
  const isNew = m.selected === 'new';
  return {
    view: {
      status: m.status,
      loading: m.status === null,
      savedIds: m.savedIds,
      selected: m.selected,
      newAddress: isNew,
      finderShown: isNew && FINDER.includes(m.status),
      fieldsShown: isNew && (m.status === 'address_found' || m.status === 'adding_manually'),
      query: m.query,
      canFind: !searching && m.query.trim().length >= 3,
      searching,
      possible: m.status === 'found_addresses' ? m.possible : null,
      fields: m.fields,
      voucherNamesShown: c.purpose === 'delivery' && c.giftVouchers,
      giftVoucherFrom: m.giftVoucherFrom,
      giftVoucherTo: m.giftVoucherTo,
      problems: exactlyShown(shown),
      canContinue: Object.keys(all).length === 0 && m.deleting === null && !m.saving && m.status !== null,
      deleting: m.deleting,
      saving: m.saving,
      problem: m.problem,
    },
    running,
    ...(extra.started ? { started: extra.started } : {}),
    ...(extra.sent ? { sent: extra.sent } : {}),
  };
}

/** Problems are compared whole: an extra message is as wrong as a missing one. */
const exactlyShown = (shown: Record<string, string>) => shown as AddressView['problems'];

function oracleFor(c: Case) {
  return (q: Q, variant: string | undefined): Expectation<AddressView> | undefined => {
    const { event } = q;
    const m = modelOf(q);
    const to = (
      change: Partial<Model>,
      extra?: { started?: Record<string, unknown[]>; sent?: Record<string, unknown[]> },
    ) => expect_({ ...m, ...change }, c, extra);
    // Problems shown before this step are exactly the missing ones the buyer has met.
    expect(Object.keys(q.view.problems).sort()).toEqual(
      Object.keys(missing(m, c))
        .filter((k) => m.tried || m.touched.includes(k))
        .sort(),
    );

    // Where the form starts: what was given before is kept; a new address given is in its fields.
    const given = variant ? STARTS[variant] : undefined;
    const named =
      given !== undefined && Object.entries(given.fields).some(([k, v]) => k !== 'country' && v.trim() !== '');
    const addressGiven =
      given?.selected === 'new' && (given.fields.address_1.trim() !== '' || given.fields.postcode.trim() !== '');
    const withoutSaved = () => to({ status: named ? 'adding_manually' : 'new_user', selected: 'new' });
    if (event.type === 'xstate.done.actor.loadSavedAddresses') {
      const saved = event.output as SavedAddress[];
      if (!saved.length) return withoutSaved();
      const ids = saved.map((a) => a.id);
      const preferred = saved.find((a) => a.is_default)?.id ?? ids[0]!;
      const chosen =
        given && given.selected !== 'new' && ids.includes(given.selected)
          ? given.selected
          : addressGiven
            ? 'new'
            : preferred;
      return to({ status: addressGiven ? 'adding_manually' : 'new', savedIds: ids, selected: chosen });
    }
    if (event.type === 'xstate.error.actor.loadSavedAddresses') return withoutSaved();
    // Nothing can be done before the saved addresses are known; nothing more once sent.
    if (m.status === null) return q.unchanged();

    switch (event.type) {
      case 'SAVED_ADDRESS_CHOSEN': {
        const selection = event.selection as Model['selected'];
        if (selection !== 'new' && !m.savedIds.includes(selection)) return q.unchanged();
        return to({ selected: selection, problem: null });
      }
      case 'QUERY_TYPED':
        return to({ query: event.text as string });
      case 'FIELD_LEFT':
        return to({ touched: [...m.touched, event.field as string] });
      case 'VOUCHER_NAME_TYPED':
        return to(
          event.field === 'gift_voucher_from'
            ? { giftVoucherFrom: event.value as string, problem: null }
            : { giftVoucherTo: event.value as string, problem: null },
        );
      case 'FIELD_TYPED':
        // Typing manually sets adding_manually (and ends a search in flight).
        return to({
          status: 'adding_manually',
          fields: { ...m.fields, [event.field as string]: event.value },
          problem: null,
        });
      case 'FIND_CLICKED':
        // Disabled under 3 characters, while searching, and where the finder is hidden.
        if (!['new', 'new_user', 'found_addresses'].includes(m.status!) || m.query.trim().length < 3)
          return q.unchanged();
        return to({ status: 'searching' }, { started: { lookupAddress: [{ address: m.query.trim() }] } });
      case 'xstate.done.actor.lookupAddress':
        return to({ status: 'found_addresses', possible: event.output as PossibleAddress[] });
      case 'xstate.error.actor.lookupAddress':
        // A failed lookup yields an empty list.
        return to({ status: 'found_addresses', possible: [] });
      case 'ADDRESS_PICKED': {
        const found = m.status === 'found_addresses' ? m.possible[event.index as number] : undefined;
        if (!found) return q.unchanged();
        return to({
          status: 'address_found',
          fields: {
            ...m.fields,
            address_1: found.address_line_1,
            address_2: found.address_line_2,
            town: found.town,
            postcode: found.post_code,
            country: found.country,
            state: found.state,
          },
          problem: null,
        });
      }
      case 'ENTER_MANUALLY_CLICKED':
        return ['new', 'new_user', 'found_addresses'].includes(m.status!)
          ? to({ status: 'adding_manually' })
          : q.unchanged();
      case 'FIND_AGAIN_CLICKED':
        if (!['address_found', 'adding_manually'].includes(m.status!)) return q.unchanged();
        return to({ status: m.savedIds.length ? 'new' : 'new_user' });
      case 'DELETE_CLICKED': {
        const id = event.addressId as number;
        if (m.deleting !== null || m.saving || !m.savedIds.includes(id)) return q.unchanged();
        return to({ deleting: id }, { started: { deleteAddress: [{ address_id: id }] } });
      }
      case 'xstate.done.actor.deleteAddress': {
        const savedIds = m.savedIds.filter((id) => id !== m.deleting);
        return to({
          savedIds,
          deleting: null,
          selected: m.selected === m.deleting ? (savedIds[0] ?? 'new') : m.selected,
        });
      }
      case 'xstate.error.actor.deleteAddress':
        return to({ deleting: null });
      case 'CONTINUE_CLICKED':
        if (m.deleting !== null || m.saving) return q.unchanged();
        if (Object.keys(missing(m, c)).length) return to({ tried: true });
        // A billing address goes back to the payment chart, which sends it with the payment; the form stays.
        if (c.purpose === 'billing')
          return to(
            { tried: true, problem: null },
            { sent: { parent: [{ type: 'ADDRESS_GIVEN', outcome: payload(q.view, c) }] } },
          );
        return to({ saving: true, tried: true, problem: null }, { started: { submitAddress: [payload(q.view, c)] } });
      case 'xstate.done.actor.submitAddress': {
        const atContinue = q.earlier.findLast((e) => e.event.type === 'CONTINUE_CLICKED')!;
        return { view: {}, running: [], output: payload(atContinue.view, c) };
      }
      case 'xstate.error.actor.submitAddress': {
        const text = (event.error as Error).message || (c.purpose === 'delivery' ? UNABLE_DELIVERY : UNABLE_BILLING);
        return to({ saving: false, problem: text });
      }
    }
    return undefined;
  };
}

const LOOKUP = (status: string) => `{"editing":{"lookup":"${status}"}}`;
const REQUEST = (status: string) => `{"editing":{"request":"${status}"}}`;

/** The rest of an address, typed by hand. */
const WHOLE_ADDRESS: WalkEvent[] = [
  { type: 'FIELD_TYPED', field: 'address_1', value: '14 Quay Street' },
  { type: 'FIELD_TYPED', field: 'town', value: 'Bristol' },
  { type: 'FIELD_TYPED', field: 'postcode', value: 'BS1 4RN' },
];

/** A parallel state's region on its own, as the chart counts it; the value itself outside it. */
function region(name: 'lookup' | 'request', snapshot: { value: unknown }): string {
  const value = snapshot.value as string | { editing: Record<string, string> };
  if (typeof value === 'string') return JSON.stringify(value);
  const status = value.editing[name]!;
  // The finder with saved addresses beside it and a new buyer's finder offer the same steps (spec 000 §4): one state.
  return name === 'lookup' && (status === 'new' || status === 'new_user')
    ? LOOKUP('finder')
    : JSON.stringify({ editing: { [name]: status } });
}

const MERGE =
  'each region of the state value, the lookup’s new and new_user as one (the finder): both take the same events to the same states ' +
  '(find, enter manually, a field typed); which one shows depends only on whether the buyer has saved addresses';

/**
 * The chart paths the form cannot take (spec 000 §4), each why. Every one is checked: the walk
 * finds none of them among the machine's states, and takes every other.
 */
const UNREACHABLE: Array<{ why: string; matches: (route: ChartRoute) => boolean }> = [
  {
    why: 'a lookup that failed leaves no address to pick',
    matches: ({ moves }) =>
      moves.some(
        (m, i) => m.type === 'ADDRESS_PICKED' && i > 0 && moves[i - 1]!.type === 'xstate.error.actor.lookupAddress',
      ),
  },
  {
    why:
      'with the saved addresses unread, the finder opens only on an empty form (an address given before opens its fields), ' +
      'which is complete only once typed by hand: a picked address has no names',
    matches: ({ moves }) =>
      moves[0]?.type === 'xstate.error.actor.loadSavedAddresses' &&
      moves[0].to === LOOKUP('finder') &&
      moves.some((m) => m.to === '"submitted"') &&
      !moves.some((m) => m.to === LOOKUP('adding_manually')),
  },
  {
    why: 'with the saved addresses unread there is none to delete',
    matches: ({ moves }) =>
      moves[0]?.type === 'xstate.error.actor.loadSavedAddresses' &&
      moves[0].to === REQUEST('idle') &&
      moves[1]?.type === 'DELETE_CLICKED',
  },
];

async function walkFor(c: Case) {
  return walk<AddressView>({
    name: `address (${c.purpose}${c.giftVouchers ? ', gift vouchers' : ''})`,
    machine: addressMachine,
    // The chart's simple paths are counted over the three walks together, and kept with the last (billing).
    paths: { follow: c.purpose === 'delivery', merge: MERGE, unreachable: UNREACHABLE },
    simplePathsOver: [(snapshot) => region('lookup', snapshot), (snapshot) => region('request', snapshot)],
    input: c.purpose === 'delivery' ? undefined : { purpose: c.purpose },
    variants: [
      { name: 'nothing given', input: c.purpose === 'delivery' ? undefined : { purpose: c.purpose } },
      ...Object.entries(STARTS).map(([name, start]) => ({ name, input: { purpose: c.purpose, start } })),
      // A buyer who types the whole address by hand: the routes that end in sending it, from wherever the finder was.
      {
        name: 'a whole address typed',
        input: c.purpose === 'delivery' ? undefined : { purpose: c.purpose },
        routesOnly: true,
        events: { FIELD_TYPED: [...events.FIELD_TYPED!.slice(0, 2), ...WHOLE_ADDRESS] },
        // Told apart by which parts are still missing, so typing one more part is a step of its own.
        serializeState: (snapshot) => {
          const ctx = snapshot.context as Parameters<typeof viewAddress>[0]['context'];
          return JSON.stringify([
            snapshot.value,
            ctx.form.selected,
            ctx.savedIds.length,
            Object.keys(addressProblems(ctx.form, { purpose: ctx.purpose, giftVouchers: c.giftVouchers })).sort(),
            ctx.query.trim().length >= 3,
            ctx.possible.length,
          ]);
        },
      },
    ],
    // Only the payment chart's billing form has a parent it reports to.
    ...(c.purpose === 'billing' ? { parentActions: ['giveToPayment'] } : {}),
    fakes: (kit) => ({
      actors: {
        loadSavedAddresses: kit.controlled(),
        lookupAddress: kit.controlled(),
        deleteAddress: kit.controlled(),
        submitAddress: kit.controlled(),
      },
    }),
    events: { ...events, CONTINUE_CLICKED: [{ type: 'CONTINUE_CLICKED', giftVouchers: c.giftVouchers }] },
    askIgnored: true,
    // Told apart by what decides the next steps: where the form is, and how much is still missing.
    serializeState: (snapshot) => {
      const ctx = snapshot.context as Parameters<typeof viewAddress>[0]['context'];
      return JSON.stringify([
        snapshot.value,
        ctx.form.selected === 'new',
        ctx.savedIds.length,
        Object.keys(addressProblems(ctx.form, { purpose: ctx.purpose, giftVouchers: c.giftVouchers })).length === 0,
        ctx.query.trim().length >= 3,
        ctx.possible.length,
      ]);
    },
    // A new address completed field by field, refused once, then sent: found by the lookup, and typed for the USA.
    extraPaths: [
      {
        events: [
          events['xstate.done.actor.loadSavedAddresses']![1]!,
          events.QUERY_TYPED![1]!,
          { type: 'FIND_CLICKED' },
          events['xstate.done.actor.lookupAddress']![0]!,
          events.ADDRESS_PICKED![0]!,
          ...events.FIELD_TYPED!.slice(0, 2),
          ...(c.giftVouchers ? events.VOUCHER_NAME_TYPED! : []),
          { type: 'CONTINUE_CLICKED', giftVouchers: c.giftVouchers },
          ...(c.purpose === 'billing'
            ? []
            : [
                events['xstate.error.actor.submitAddress']![1]!,
                { type: 'CONTINUE_CLICKED', giftVouchers: c.giftVouchers },
                events['xstate.done.actor.submitAddress']![0]!,
              ]),
        ],
      },
      {
        events: [
          events['xstate.done.actor.loadSavedAddresses']![0]!,
          { type: 'SAVED_ADDRESS_CHOSEN', selection: 'new' },
          { type: 'ENTER_MANUALLY_CLICKED' },
          ...events.FIELD_TYPED!.slice(0, 2),
          { type: 'FIELD_TYPED', field: 'address_1', value: '310 Valencia Street' },
          { type: 'FIELD_TYPED', field: 'town', value: 'San Francisco' },
          { type: 'FIELD_TYPED', field: 'postcode', value: '94110' },
          { type: 'FIELD_TYPED', field: 'country', value: '2' },
          { type: 'CONTINUE_CLICKED', giftVouchers: c.giftVouchers },
          { type: 'FIELD_TYPED', field: 'state', value: 'CA' },
          ...(c.giftVouchers ? events.VOUCHER_NAME_TYPED! : []),
          { type: 'CONTINUE_CLICKED', giftVouchers: c.giftVouchers },
          ...(c.purpose === 'billing' ? [] : [events['xstate.done.actor.submitAddress']![0]!]),
        ],
      },
      // A new address typed by hand with the country cleared: the country is asked for.
      {
        events: [
          events['xstate.done.actor.loadSavedAddresses']![0]!,
          { type: 'SAVED_ADDRESS_CHOSEN', selection: 'new' },
          { type: 'ENTER_MANUALLY_CLICKED' },
          { type: 'FIELD_TYPED', field: 'country', value: '' },
          { type: 'CONTINUE_CLICKED', giftVouchers: c.giftVouchers },
        ],
      },
    ],
    view: (snapshot) => viewAddress(snapshot as never, { giftVouchers: c.giftVouchers }),
    initial: () => ({
      view: { status: null, loading: true, canContinue: false, problems: {} },
      running: ['loadSavedAddresses'],
      started: { loadSavedAddresses: [undefined] },
    }),
    oracle: oracleFor(c),
  });
}

/** What only delivery does: send the address itself, and end. */
const BILLING_NEVER = {
  states: ['address.editing.request.submitting', 'address.submitted'],
  transitions: [
    'address.editing.request.idle CONTINUE_CLICKED #1',
    'address.editing.request.submitting xstate.done.actor.submitAddress #0',
    'address.editing.request.submitting xstate.error.actor.submitAddress #0',
  ],
};

describe('address machine', () => {
  it.each<Case>([
    { purpose: 'delivery', giftVouchers: false },
    { purpose: 'delivery', giftVouchers: true },
    { purpose: 'billing', giftVouchers: false },
  ])(
    'is walked at 100 % for $purpose (gift vouchers: $giftVouchers), every step checked against spec 000 §4-§5 and 001 §5',
    { timeout: 300_000 },
    async (c) => {
      const result = await walkFor(c);
      // Delivery sends the address itself; billing gives it to the payment chart, which sends it.
      expect(result.states.missing).toEqual(c.purpose === 'billing' ? BILLING_NEVER.states : []);
      expect(result.transitions.missing).toEqual(
        c.purpose === 'billing' ? BILLING_NEVER.transitions : ['address.editing.request.idle CONTINUE_CLICKED #0'],
      );
    },
  );
});

describe('the address a signed-in buyer starts from', () => {
  const started = async (saved: SavedAddress[], start?: AddressStart) => {
    const actor = createActor(
      addressMachine.provide({ actors: { loadSavedAddresses: fromPromise(async () => saved) } }),
      { input: { purpose: 'delivery', ...(start ? { start } : {}) } },
    );
    actor.start();
    await waitFor(actor, (s) => !s.hasTag('loading'));
    const selected = actor.getSnapshot().context.form.selected;
    actor.stop();
    return selected;
  };

  it('is the default the buyer made in My account, else the newest, unless another was chosen before', async () => {
    expect(await started(SAVED)).toBe(7);
    expect(await started(SAVED.map((a) => ({ ...a, is_default: a.id === 8 })))).toBe(8);
    expect(
      await started(
        SAVED.map((a) => ({ ...a, is_default: a.id === 8 })),
        { selected: 7, fields: fields({}) },
      ),
    ).toBe(7);
  });
});
