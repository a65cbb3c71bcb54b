/** What the address form shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import {
  FIND_MIN_CHARACTERS,
  addressProblems,
  type AddressField,
  type AddressFields,
  type AddressProblemKey,
  type AddressSelection,
  type PossibleAddress,
  type VoucherField,
} from '../../contract';
import type { AddressEvent, LookupStatus, addressMachine } from './address.machine';
import { ADDRESS_MESSAGES } from '../../contract/messages/address';

export interface AddressView {
  /** The lookup status (spec 000 §4), or 'searching' while a lookup is in flight; null while loading. */
  status: LookupStatus | 'searching' | null;
  loading: boolean;
  /** The saved addresses still offered. */
  savedIds: number[];
  selected: AddressSelection;
  /** The finder, possible addresses and fields belong to a new address. */
  newAddress: boolean;
  finderShown: boolean;
  fieldsShown: boolean;
  query: string;
  canFind: boolean;
  searching: boolean;
  /** Shown after a lookup: the possible addresses (empty when nothing matched or the lookup failed). */
  possible: PossibleAddress[] | null;
  fields: AddressFields;
  voucherNamesShown: boolean;
  giftVoucherFrom: string;
  giftVoucherTo: string;
  /** The rules' messages the buyer is shown now: for fields left, or all after a try. */
  problems: Partial<Record<AddressProblemKey, string>>;
  canContinue: boolean;
  deleting: number | null;
  saving: boolean;
  problem: string | null;
}

const STATUSES: LookupStatus[] = ['new', 'new_user', 'found_addresses', 'address_found', 'adding_manually'];

function statusOf(snapshot: SnapshotFrom<typeof addressMachine>): AddressView['status'] {
  if (snapshot.hasTag('searching')) return 'searching';
  return STATUSES.find((s) => snapshot.matches({ editing: { lookup: s } })) ?? null;
}

export function viewAddress(
  snapshot: SnapshotFrom<typeof addressMachine>,
  basket: { giftVouchers: boolean },
): AddressView {
  const { context } = snapshot;
  const { form, purpose } = context;
  const status = statusOf(snapshot);
  const all = addressProblems(form, { purpose, giftVouchers: basket.giftVouchers });
  const shown = Object.fromEntries(
    Object.entries(all)
      .filter(([key]) => context.tried || context.touched.includes(key as AddressProblemKey))
      .map(([key, problem]) => [key, ADDRESS_MESSAGES[problem]]),
  ) as AddressView['problems'];
  const searching = status === 'searching';
  const newAddress = form.selected === 'new';
  const busy = snapshot.hasTag('saving') || snapshot.hasTag('deleting') || snapshot.hasTag('loading');
  return {
    status,
    loading: snapshot.hasTag('loading'),
    savedIds: context.savedIds,
    selected: form.selected,
    newAddress,
    finderShown: newAddress && status !== null && status !== 'address_found' && status !== 'adding_manually',
    fieldsShown: newAddress && (status === 'address_found' || status === 'adding_manually'),
    query: context.query,
    canFind: !searching && context.query.trim().length >= FIND_MIN_CHARACTERS,
    searching,
    possible: status === 'found_addresses' ? context.possible : null,
    fields: form.fields,
    voucherNamesShown: purpose === 'delivery' && basket.giftVouchers,
    giftVoucherFrom: form.giftVoucherFrom,
    giftVoucherTo: form.giftVoucherTo,
    problems: shown,
    canContinue: Object.keys(all).length === 0 && !busy,
    deleting: context.deleting,
    saving: snapshot.hasTag('saving'),
    problem: context.problem,
  };
}

export function addressSenders(send: (event: AddressEvent) => void) {
  return {
    chooseSaved: (selection: AddressSelection) => send({ type: 'SAVED_ADDRESS_CHOSEN', selection }),
    deleteSaved: (addressId: number) => send({ type: 'DELETE_CLICKED', addressId }),
    typeQuery: (text: string) => send({ type: 'QUERY_TYPED', text }),
    find: () => send({ type: 'FIND_CLICKED' }),
    pick: (index: number) => send({ type: 'ADDRESS_PICKED', index }),
    enterManually: () => send({ type: 'ENTER_MANUALLY_CLICKED' }),
    findAgain: () => send({ type: 'FIND_AGAIN_CLICKED' }),
    typeField: (field: AddressField, value: string) => send({ type: 'FIELD_TYPED', field, value }),
    leaveField: (field: AddressProblemKey) => send({ type: 'FIELD_LEFT', field }),
    typeVoucherName: (field: VoucherField, value: string) => send({ type: 'VOUCHER_NAME_TYPED', field, value }),
    continue: (giftVouchers: boolean) => send({ type: 'CONTINUE_CLICKED', giftVouchers }),
  };
}
