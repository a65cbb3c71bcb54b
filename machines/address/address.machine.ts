/**
 * The one address form (spec 000 §2 Address screen, §3 Address, §4 Address lookup statuses, §5
 * Address; spec 001 §2 Delivery Address, §5 Address and Gift voucher): a signed-in buyer's saved
 * addresses (with delete), the finder (Find needs 3 characters and is refused while searching),
 * the possible addresses, manual entry, and the gift voucher from/to names when the basket holds
 * vouchers. The lookup's statuses are the states `new`, `new_user`, `found_addresses`,
 * `address_found` and `adding_manually`.
 *
 * Used for the delivery address (the delivery_address step) and for the billing address (the
 * payment step): the `purpose` input picks the rules' words. For delivery the app provides
 * `submitAddress` (set_delivery_address) and the sent address completes the chart; for billing the
 * payment chart is the parent, which asks with CONTINUE_CLICKED when Pay is pressed and is given the
 * valid address back (`ADDRESS_GIVEN`), to send with the payment; the form stays, for another try
 * after a declined card. The `start` input is where the form starts (what the buyer gave before).
 * The rules are the contract's `addressProblems`; their words are in contract/messages/address.ts.
 */
import { and, assertEvent, assign, sendParent, setup } from 'xstate';
import {
  FIND_MIN_CHARACTERS,
  addressPayload,
  addressProblems,
  emptyAddressFields,
  fieldsFromPossible,
  type AddressField,
  type AddressForm,
  type AddressPayload,
  type AddressProblemKey,
  type AddressPurpose,
  type AddressSelection,
  type AddressStart,
  type PossibleAddress,
  type SavedAddress,
  type VoucherField,
} from '../../contract';
import { ADDRESS_MESSAGES } from '../../contract/messages/address';
import { providedByApp } from '../providedByApp';

export type LookupStatus = 'new' | 'new_user' | 'found_addresses' | 'address_found' | 'adding_manually';

export type AddressEvent =
  | { type: 'SAVED_ADDRESS_CHOSEN'; selection: AddressSelection }
  | { type: 'DELETE_CLICKED'; addressId: number }
  | { type: 'QUERY_TYPED'; text: string }
  | { type: 'FIND_CLICKED' }
  | { type: 'ADDRESS_PICKED'; index: number }
  | { type: 'ENTER_MANUALLY_CLICKED' }
  | { type: 'FIND_AGAIN_CLICKED' }
  | { type: 'FIELD_TYPED'; field: AddressField; value: string }
  | { type: 'FIELD_LEFT'; field: AddressProblemKey }
  | { type: 'VOUCHER_NAME_TYPED'; field: VoucherField; value: string }
  /** Whether the basket holds gift vouchers (from the checkout the buyer sees): the from/to rule depends on it. */
  | { type: 'CONTINUE_CLICKED'; giftVouchers: boolean };

export interface AddressInput {
  purpose?: AddressPurpose;
  /** Where the form starts: a saved address chosen before, or the fields already given. */
  start?: AddressStart;
}

/** What the billing form tells the payment chart, its parent, when Pay finds it valid. */
export interface AddressGivenEvent {
  type: 'ADDRESS_GIVEN';
  outcome: AddressOutcome;
}

/** What the form gives: the `address` object and the gift voucher names, as sent. */
export interface AddressOutcome {
  address: AddressPayload;
  gift_voucher_from?: string;
  gift_voucher_to?: string;
}

export interface AddressContext {
  purpose: AddressPurpose;
  /** The saved addresses offered (ids; the screen reads the addresses themselves from the query cache). */
  savedIds: number[];
  form: AddressForm;
  query: string;
  possible: PossibleAddress[];
  /** The saved address being deleted. */
  deleting: number | null;
  /** Fields whose message is shown: left once, or all after a try to continue. */
  touched: AddressProblemKey[];
  tried: boolean;
  /** A failed submission, in words for the buyer. */
  problem: string | null;
  outcome: AddressOutcome | null;
}

export function outcomeOf(form: AddressForm, giftVouchers: boolean): AddressOutcome {
  const address = addressPayload(form);
  return giftVouchers
    ? { address, gift_voucher_from: form.giftVoucherFrom.trim(), gift_voucher_to: form.giftVoucherTo.trim() }
    : { address };
}

export const emptyAddressForm: AddressForm = {
  selected: 'new',
  fields: emptyAddressFields,
  giftVoucherFrom: '',
  giftVoucherTo: '',
};

/** Fields with something already in them (a name at least): the form starts in its fields. */
function startsWithAddress(form: AddressForm): boolean {
  const { country: _always, ...given } = form.fields;
  return Object.values(given).some((v) => v.trim() !== '');
}

/** A new address with more than a name in it (a line or a postcode). */
function givesAnAddress(form: AddressForm): boolean {
  return form.selected === 'new' && (form.fields.address_1.trim() !== '' || form.fields.postcode.trim() !== '');
}

export const addressMachine = setup({
  types: {
    context: {} as AddressContext,
    events: {} as AddressEvent,
    input: {} as AddressInput | undefined,
    output: {} as AddressOutcome | null,
    children: {} as {
      loadSavedAddresses: 'loadSavedAddresses';
      lookupAddress: 'lookupAddress';
      deleteAddress: 'deleteAddress';
      submitAddress: 'submitAddress';
    },
    tags: {} as 'loading' | 'searching' | 'deleting' | 'saving',
  },
  actors: {
    /** The signed-in buyer's saved addresses (none for anyone else), from the app's query cache. */
    loadSavedAddresses: providedByApp.call<SavedAddress[], void>('loadSavedAddresses'),
    /** lookup_address; a failure is an empty list. */
    lookupAddress: providedByApp.call<PossibleAddress[], { address: string }>('lookupAddress'),
    deleteAddress: providedByApp.call<unknown, { address_id: number }>('deleteAddress'),
    /** Sends the address (set_delivery_address for delivery); rejects with an Error whose message is the text to show. */
    submitAddress: providedByApp.call<unknown, AddressOutcome>('submitAddress'),
  },
  actions: {
    /**
     * The buyer's default saved address is chosen, else the newest, unless the buyer had chosen
     * another or given a new one.
     */
    keepSaved: assign(({ context }, params: { saved: SavedAddress[] }) => {
      const ids = params.saved.map((a) => a.id);
      const chosen = context.form.selected;
      const preferred = params.saved.find((a) => a.is_default)?.id ?? ids[0] ?? ('new' as const);
      const selected =
        chosen !== 'new' && ids.includes(chosen) ? chosen : givesAnAddress(context.form) ? ('new' as const) : preferred;
      return { savedIds: ids, form: { ...context.form, selected } };
    }),
    /** No saved address is offered: a saved one chosen before cannot be. */
    chooseNew: assign(({ context }) => ({ form: { ...context.form, selected: 'new' as const } })),
    chooseSaved: assign(({ context, event }) => {
      assertEvent(event, 'SAVED_ADDRESS_CHOSEN');
      return { form: { ...context.form, selected: event.selection }, problem: null };
    }),
    keepDeleting: assign(({ event }) => {
      assertEvent(event, 'DELETE_CLICKED');
      return { deleting: event.addressId };
    }),
    forgetDeleted: assign(({ context }) => {
      const savedIds = context.savedIds.filter((id) => id !== context.deleting);
      const selected = context.form.selected === context.deleting ? (savedIds[0] ?? 'new') : context.form.selected;
      return { savedIds, deleting: null, form: { ...context.form, selected } };
    }),
    stopDeleting: assign({ deleting: null }),
    typeQuery: assign(({ event }) => {
      assertEvent(event, 'QUERY_TYPED');
      return { query: event.text };
    }),
    keepPossible: assign((_, params: { possible: PossibleAddress[] }) => ({ possible: params.possible })),
    forgetPossible: assign({ possible: [] }),
    pickAddress: assign(({ context, event }) => {
      assertEvent(event, 'ADDRESS_PICKED');
      return {
        form: { ...context.form, fields: fieldsFromPossible(context.possible[event.index]!, context.form.fields) },
        problem: null,
      };
    }),
    typeField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_TYPED');
      return {
        form: { ...context.form, fields: { ...context.form.fields, [event.field]: event.value } },
        problem: null,
      };
    }),
    typeVoucherName: assign(({ context, event }) => {
      assertEvent(event, 'VOUCHER_NAME_TYPED');
      const key = event.field === 'gift_voucher_from' ? 'giftVoucherFrom' : 'giftVoucherTo';
      return { form: { ...context.form, [key]: event.value }, problem: null };
    }),
    touchField: assign(({ context, event }) => {
      assertEvent(event, 'FIELD_LEFT');
      return { touched: context.touched.includes(event.field) ? context.touched : [...context.touched, event.field] };
    }),
    revealProblems: assign({ tried: true }),
    keepOutcome: assign(({ context, event }) => {
      assertEvent(event, 'CONTINUE_CLICKED');
      return { outcome: outcomeOf(context.form, event.giftVouchers), problem: null, tried: true };
    }),
    giveToPayment: sendParent(({ context }): AddressGivenEvent => ({
      type: 'ADDRESS_GIVEN',
      outcome: context.outcome!,
    })),
    showSubmitFailure: assign(({ context }, params: { error: unknown }) => ({
      problem:
        params.error instanceof Error && params.error.message
          ? params.error.message
          : context.purpose === 'delivery'
            ? ADDRESS_MESSAGES.unableToSetDelivery
            : ADDRESS_MESSAGES.unableToFindBilling,
    })),
  },
  guards: {
    hasSaved: (_, params: { saved: SavedAddress[] }) => params.saved.length > 0,
    /** The form starts from a new address already given (a name at least): its fields are shown. */
    startsWithAddress: ({ context }) => startsWithAddress(context.form),
    /** Saved addresses, and a new address given before (more than a name): the new one stays chosen. */
    hasSavedBesideStart: ({ context }, params: { saved: SavedAddress[] }) =>
      params.saved.length > 0 && givesAnAddress(context.form),
    isBilling: ({ context }) => context.purpose === 'billing',
    /** A valid form on the payment step: the address goes to the payment chart. */
    validBilling: and(['formIsValid', 'isBilling']),
    buyerHasSaved: ({ context }) => context.savedIds.length > 0,
    isOffered: ({ context, event }) => {
      assertEvent(event, 'SAVED_ADDRESS_CHOSEN');
      return event.selection === 'new' || context.savedIds.includes(event.selection);
    },
    isSaved: ({ context, event }) => {
      assertEvent(event, 'DELETE_CLICKED');
      return context.savedIds.includes(event.addressId);
    },
    queryLongEnough: ({ context }) => context.query.trim().length >= FIND_MIN_CHARACTERS,
    isFound: ({ context, event }) => {
      assertEvent(event, 'ADDRESS_PICKED');
      return Number.isInteger(event.index) && event.index >= 0 && event.index < context.possible.length;
    },
    formIsValid: ({ context, event }) => {
      assertEvent(event, 'CONTINUE_CLICKED');
      return (
        Object.keys(addressProblems(context.form, { purpose: context.purpose, giftVouchers: event.giftVouchers }))
          .length === 0
      );
    },
  },
}).createMachine({
  id: 'address',
  description: 'A saved address, or a new one found by the lookup or typed by hand; then the address is sent.',
  context: ({ input }) => ({
    purpose: input?.purpose ?? 'delivery',
    savedIds: [],
    form: input?.start ? { ...emptyAddressForm, ...input.start } : emptyAddressForm,
    query: '',
    possible: [],
    deleting: null,
    touched: [],
    tried: false,
    problem: null,
    outcome: null,
  }),
  output: ({ context }) => context.outcome,
  initial: 'loading',
  states: {
    loading: {
      tags: ['loading'],
      invoke: {
        src: 'loadSavedAddresses',
        id: 'loadSavedAddresses',
        onDone: [
          {
            guard: { type: 'hasSavedBesideStart', params: ({ event }) => ({ saved: event.output }) },
            target: 'editing.lookup.adding_manually',
            actions: { type: 'keepSaved', params: ({ event }) => ({ saved: event.output }) },
            description: 'Saved addresses, and a new address given before: its fields, beside the saved ones.',
          },
          {
            guard: { type: 'hasSaved', params: ({ event }) => ({ saved: event.output }) },
            target: 'editing.lookup.new',
            actions: { type: 'keepSaved', params: ({ event }) => ({ saved: event.output }) },
            description: 'A signed-in buyer with saved addresses: the one chosen before, else the newest.',
          },
          {
            guard: 'startsWithAddress',
            target: 'editing.lookup.adding_manually',
            actions: 'chooseNew',
            description: 'The address given before (a name at least), in its fields.',
          },
          {
            target: 'editing.lookup.new_user',
            actions: 'chooseNew',
            description: 'No saved address: a new one is needed.',
          },
        ],
        onError: [
          { guard: 'startsWithAddress', target: 'editing.lookup.adding_manually', actions: 'chooseNew' },
          {
            target: 'editing.lookup.new_user',
            actions: 'chooseNew',
            description: 'Without the saved addresses, a new one is still possible.',
          },
        ],
      },
    },
    editing: {
      type: 'parallel',
      description: 'The lookup and the form’s requests go on side by side.',
      on: {
        SAVED_ADDRESS_CHOSEN: { guard: 'isOffered', actions: 'chooseSaved' },
        QUERY_TYPED: { actions: 'typeQuery' },
        FIELD_LEFT: { actions: 'touchField', description: 'Its message shows once the buyer has left the field.' },
        VOUCHER_NAME_TYPED: { actions: 'typeVoucherName' },
      },
      states: {
        lookup: {
          description: 'The address lookup statuses of spec 000 §4.',
          initial: 'new_user',
          on: {
            FIELD_TYPED: {
              target: '.adding_manually',
              actions: 'typeField',
              description: 'Typing manually sets adding_manually.',
            },
          },
          states: {
            new: {
              description: 'A buyer with saved addresses; the finder is ready for a new one.',
              on: {
                FIND_CLICKED: { guard: 'queryLongEnough', target: 'searching' },
                ENTER_MANUALLY_CLICKED: { target: 'adding_manually' },
              },
            },
            new_user: {
              description: 'A buyer without saved addresses: the finder first.',
              on: {
                FIND_CLICKED: { guard: 'queryLongEnough', target: 'searching' },
                ENTER_MANUALLY_CLICKED: { target: 'adding_manually' },
              },
            },
            searching: {
              tags: ['searching'],
              description: 'Find is disabled while searching.',
              invoke: {
                src: 'lookupAddress',
                id: 'lookupAddress',
                input: ({ context }) => ({ address: context.query.trim() }),
                onDone: {
                  target: 'found_addresses',
                  actions: { type: 'keepPossible', params: ({ event }) => ({ possible: event.output }) },
                },
                onError: {
                  target: 'found_addresses',
                  actions: 'forgetPossible',
                  description: 'A failed lookup yields an empty list.',
                },
              },
            },
            found_addresses: {
              on: {
                ADDRESS_PICKED: { guard: 'isFound', target: 'address_found', actions: 'pickAddress' },
                FIND_CLICKED: { guard: 'queryLongEnough', target: 'searching' },
                ENTER_MANUALLY_CLICKED: { target: 'adding_manually' },
              },
            },
            address_found: {
              description: 'The picked address fills the fields and the finder is hidden.',
              on: {
                FIND_AGAIN_CLICKED: [{ guard: 'buyerHasSaved', target: 'new' }, { target: 'new_user' }],
              },
            },
            adding_manually: {
              description: 'The fields typed by hand; the finder is hidden until the buyer asks for it again.',
              on: {
                FIND_AGAIN_CLICKED: [{ guard: 'buyerHasSaved', target: 'new' }, { target: 'new_user' }],
              },
            },
          },
        },
        request: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                DELETE_CLICKED: { guard: 'isSaved', target: 'deleting', actions: 'keepDeleting' },
                CONTINUE_CLICKED: [
                  {
                    guard: 'validBilling',
                    actions: ['keepOutcome', 'giveToPayment'],
                    description:
                      'A billing address is sent with the payment, by the payment chart; the form stays for another try.',
                  },
                  { guard: 'formIsValid', target: 'submitting', actions: 'keepOutcome' },
                  { actions: 'revealProblems', description: 'Every missing part is named beside its field.' },
                ],
              },
            },
            deleting: {
              tags: ['deleting'],
              invoke: {
                src: 'deleteAddress',
                id: 'deleteAddress',
                input: ({ context }) => ({ address_id: context.deleting ?? 0 }),
                onDone: { target: 'idle', actions: 'forgetDeleted' },
                onError: { target: 'idle', actions: 'stopDeleting', description: 'The address stays in the list.' },
              },
            },
            submitting: {
              tags: ['saving'],
              invoke: {
                src: 'submitAddress',
                id: 'submitAddress',
                input: ({ context }) => context.outcome!,
                onDone: { target: '#address.submitted' },
                onError: {
                  target: 'idle',
                  actions: { type: 'showSubmitFailure', params: ({ event }) => ({ error: event.error }) },
                },
              },
            },
          },
        },
      },
    },
    submitted: { type: 'final' },
  },
});
