/**
 * Addresses (spec 000 §2 Address screen, §3 Address, §5 Address, §7; spec 001 §2 Delivery Address,
 * §5 Address and Gift voucher, §7): the five calls and the one address form's rules, shared by the
 * address chart, the screens and the server so each rule is written once. The form's words are the
 * address chart's (contract/messages/address.ts).
 */
import { z } from 'zod/mini';
import { call, done, empty, formId, formText, id } from './primitives.ts';

/** Country codes of spec 000 §3 / §9: '1' is the UK (the default), '2' the USA (which needs a state). */
export const COUNTRY_UK = '1';
export const COUNTRY_USA = '2';
/** The lookup's Find button needs at least this many typed characters (spec 000 §9). */
export const FIND_MIN_CHARACTERS = 3;

/** Whose address the form asks for: the delivery step's recipients, or the payer's billing address. */
export type AddressPurpose = 'delivery' | 'billing';

export type AddressField =
  'first_name' | 'last_name' | 'address_1' | 'address_2' | 'town' | 'postcode' | 'country' | 'state';
export type VoucherField = 'gift_voucher_from' | 'gift_voucher_to';
export type AddressProblemKey = Exclude<AddressField, 'address_2'> | VoucherField | 'form';

/**
 * Why the address form cannot be sent, one name per rule (spec 000 §5; spec 001 §5): the address
 * chart words each one (contract/messages/address.ts), and the server answers with them.
 */
export type AddressProblem =
  | 'firstName'
  | 'lastName'
  | 'address1'
  | 'town'
  | 'postcode'
  | 'billingPostcode'
  | 'country'
  | 'state'
  | 'voucherFrom'
  | 'voucherTo'
  | 'completeAddress';

/** The new-address fields as the buyer fills them (spec 000 §3 Address). */
export interface AddressFields {
  first_name: string;
  last_name: string;
  address_1: string;
  address_2: string;
  town: string;
  postcode: string;
  country: string;
  state: string;
}

export const emptyAddressFields: AddressFields = {
  first_name: '',
  last_name: '',
  address_1: '',
  address_2: '',
  town: '',
  postcode: '',
  country: COUNTRY_UK,
  state: '',
};

/** A saved address, or 'new' for the fields. */
export type AddressSelection = number | 'new';

/**
 * Where the address form starts: a saved address chosen before, or the fields already given (the
 * billing address the buyer gave before a declined card, the delivery address, the account's name).
 */
export interface AddressStart {
  selected: AddressSelection;
  fields: AddressFields;
}

/** What a buyer gave, as the form that sent it would start again: the payload read back. */
export function startOf(payload: AddressPayload, previous: AddressFields = emptyAddressFields): AddressStart {
  if (payload.selected_user_address_id !== 'new')
    return { selected: Number(payload.selected_user_address_id), fields: previous };
  return {
    selected: 'new',
    fields: {
      first_name: payload.first_name ?? '',
      last_name: payload.last_name ?? '',
      address_1: payload.address_1 ?? '',
      address_2: payload.address_2 ?? '',
      town: payload.town ?? '',
      postcode: payload.postcode ?? '',
      country: payload.country || emptyAddressFields.country,
      state: payload.state ?? '',
    },
  };
}

export interface AddressForm {
  selected: AddressSelection;
  fields: AddressFields;
  giftVoucherFrom: string;
  giftVoucherTo: string;
}

const blank = (s: string) => s.trim() === '';

/**
 * What keeps the address from being valid (spec 000 §5): a saved address id, or 'new' with first
 * name, last name, line 1, town, postcode and country, plus a state for the USA; gift voucher
 * from and to when the basket holds vouchers (spec 001 §5). Billing requires the postcode alone
 * (with the country, and a state for the USA), words it its own way and asks to complete the
 * address (spec 001 §5: 'billing requires postcode').
 */
export function addressProblems(
  form: AddressForm,
  options: { purpose: AddressPurpose; giftVouchers: boolean },
): Partial<Record<AddressProblemKey, AddressProblem>> {
  const problems: Partial<Record<AddressProblemKey, AddressProblem>> = {};
  if (form.selected === 'new') {
    const f = form.fields;
    if (options.purpose === 'delivery') {
      if (blank(f.first_name)) problems.first_name = 'firstName';
      if (blank(f.last_name)) problems.last_name = 'lastName';
      if (blank(f.address_1)) problems.address_1 = 'address1';
      if (blank(f.town)) problems.town = 'town';
    }
    if (blank(f.postcode)) problems.postcode = options.purpose === 'billing' ? 'billingPostcode' : 'postcode';
    if (blank(f.country)) problems.country = 'country';
    else if (f.country === COUNTRY_USA && blank(f.state)) problems.state = 'state';
  }
  if (options.purpose === 'delivery' && options.giftVouchers) {
    if (blank(form.giftVoucherFrom)) problems.gift_voucher_from = 'voucherFrom';
    if (blank(form.giftVoucherTo)) problems.gift_voucher_to = 'voucherTo';
  }
  if (options.purpose === 'billing' && Object.keys(problems).length > 0) problems.form = 'completeAddress';
  return problems;
}

/** The `address` object of set_delivery_address / set_billing_address for a valid form. */
export function addressPayload(form: AddressForm): AddressPayload {
  if (form.selected !== 'new') return { selected_user_address_id: String(form.selected) };
  const f = form.fields;
  return {
    selected_user_address_id: 'new',
    first_name: f.first_name.trim(),
    last_name: f.last_name.trim(),
    address_1: f.address_1.trim(),
    address_2: f.address_2.trim(),
    town: f.town.trim(),
    postcode: f.postcode.trim(),
    country: f.country,
    state: f.country === COUNTRY_USA ? f.state : '',
  };
}

/* ---------- wire shapes ---------- */

export const countrySchema = z.object({ id: z.string(), name: z.string(), iso_code: z.string() });
export type Country = z.infer<typeof countrySchema>;
export const stateSchema = z.object({ id: z.string(), name: z.string(), country: z.string() });
export type CountryState = z.infer<typeof stateSchema>;

/**
 * Spec 001 §3: a saved address has id, first_name, last_name and full_address; `is_default` marks
 * the one the buyer made their default (in My account), which the address steps start from.
 */
export const savedAddressSchema = z.object({
  id: id,
  first_name: z.string(),
  last_name: z.string(),
  full_address: z.string(),
  is_default: z.optional(z.boolean()),
});
export type SavedAddress = z.infer<typeof savedAddressSchema>;

/**
 * A possible address from the lookup: spec 000 §3 names address_line_2, town and post_code, spec
 * 001 §2 formatted_address; the first line, country and state complete it.
 */
export const possibleAddressSchema = z.object({
  address_line_1: z.string(),
  address_line_2: z.string(),
  town: z.string(),
  post_code: z.string(),
  country: z.string(),
  state: z.string(),
  formatted_address: z.string(),
});
export type PossibleAddress = z.infer<typeof possibleAddressSchema>;

/** The fields a picked possible address fills. */
export function fieldsFromPossible(possible: PossibleAddress, current: AddressFields): AddressFields {
  return {
    ...current,
    address_1: possible.address_line_1,
    address_2: possible.address_line_2,
    town: possible.town,
    postcode: possible.post_code,
    country: possible.country,
    state: possible.state,
  };
}

const addressText = (max: number) => formText(max);

/** The `address` object: a saved id, or 'new' with the fields. */
export const addressRequestSchema = z.object({
  selected_user_address_id: z.union([
    z.literal('new'),
    z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'must be a saved address id or new')),
  ]),
  first_name: z.optional(addressText(100)),
  last_name: z.optional(addressText(100)),
  address_1: z.optional(addressText(200)),
  address_2: z.optional(addressText(200)),
  town: z.optional(addressText(100)),
  postcode: z.optional(addressText(16)),
  country: z.optional(addressText(8)),
  state: z.optional(addressText(8)),
});
export type AddressPayload = z.input<typeof addressRequestSchema>;

export const addressCalls = {
  getAddressAllCountriesStates: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/get_address_all_countries_states/',
    encoding: 'form',
    request: empty,
    response: z.object({ countries: z.array(countrySchema), states: z.array(stateSchema) }),
  }),
  getUserAddresses: call({
    method: 'POST',
    path: '/ajax/user/user/get_user_addresses/',
    encoding: 'form',
    request: empty,
    response: z.object({ existing_addresses: z.array(savedAddressSchema) }),
  }),
  lookupAddress: call({
    method: 'POST',
    path: '/ajax/user/user/lookup_address/',
    encoding: 'form',
    request: z.object({ address: formText(100) }),
    response: z.object({ possible_addresses: z.array(possibleAddressSchema) }),
  }),
  deleteAddress: call({
    method: 'POST',
    path: '/ajax/user/user/delete_address/',
    encoding: 'form',
    request: z.object({ address_id: formId }),
    response: done,
  }),
  setDeliveryAddress: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/set_delivery_address/',
    encoding: 'form',
    request: z.object({
      address: addressRequestSchema,
      gift_voucher_from: z.optional(formText(100)),
      gift_voucher_to: z.optional(formText(100)),
    }),
    response: done,
  }),
} as const;
