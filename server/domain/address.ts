/**
 * Addresses on the server: a signed-in buyer's saved addresses (listed and deleted only by their
 * owner), the sale's delivery address with the gift vouchers' from and to names, and whether a
 * sale needs a delivery address at all (gift vouchers, or an event whose tickets are posted).
 */
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  COUNTRY_USA,
  addressProblems,
  emptyAddressFields,
  type AddressFields,
  type AddressForm,
  type ParsedRequestOf,
  type SavedAddress,
} from '../../contract/index.ts';
import { ADDRESS_MESSAGES } from '../../contract/messages/address.ts';
import type { Database } from '../db/index.ts';
import { postalDeliveryEvents, saleDeliveryAddresses, sales, saleVouchers, userAddresses } from '../db/schema.ts';
import { countryName, isCountry, isState } from './addressCountries.ts';
import { formatAddress } from './addressLookup.ts';
import { Refusal } from './refusal.ts';
import { holdIsLive } from './sales.ts';

type UserAddressRow = typeof userAddresses.$inferSelect;

export function fullAddressOf(
  a: Pick<UserAddressRow, 'address1' | 'address2' | 'town' | 'state' | 'postcode' | 'country'>,
): string {
  return formatAddress([a.address1, a.address2, a.town, a.state, a.postcode, countryName(a.country)]);
}

/** The buyer's saved addresses, newest first; the default one, if the buyer made one so, says so. */
export async function listSavedAddresses(db: Database, userId: number): Promise<SavedAddress[]> {
  const found = await db
    .select()
    .from(userAddresses)
    .where(eq(userAddresses.userId, userId))
    .orderBy(desc(userAddresses.createdAt), desc(userAddresses.id));
  return found.map((a) => ({
    id: a.id,
    first_name: a.firstName,
    last_name: a.lastName,
    full_address: fullAddressOf(a),
    is_default: a.isDefault,
  }));
}

/**
 * Makes one of the buyer's own saved addresses their default, the one the checkout's address steps
 * start from; the one that was the default before no longer is. Anyone else's is refused.
 */
export async function makeDefaultAddress(db: Database, userId: number, addressId: number): Promise<void> {
  await db.transaction(async (tx) => {
    // The buyer's addresses are locked first, so two changes at once take turns.
    const own = await tx
      .select({ id: userAddresses.id })
      .from(userAddresses)
      .where(eq(userAddresses.userId, userId))
      .for('update');
    if (!own.some((a) => a.id === addressId)) throw new Refusal('not-found', ADDRESS_MESSAGES.savedAddressGone);
    // Cleared, then set: at most one default a buyer, which the index checks row by row.
    await tx
      .update(userAddresses)
      .set({ isDefault: false })
      .where(and(eq(userAddresses.userId, userId), eq(userAddresses.isDefault, true)));
    await tx.update(userAddresses).set({ isDefault: true }).where(eq(userAddresses.id, addressId));
  });
}

/** Deletes one of the buyer's own saved addresses; anyone else's is refused and left alone. */
export async function deleteSavedAddress(db: Database, userId: number, addressId: number): Promise<void> {
  const deleted = await db
    .delete(userAddresses)
    .where(and(eq(userAddresses.id, addressId), eq(userAddresses.userId, userId)))
    .returning({ id: userAddresses.id });
  if (!deleted.length) throw new Refusal('not-found', ADDRESS_MESSAGES.savedAddressGone);
}

/** Spec 000 §3: gift vouchers, or a ticket of an event whose tickets are posted. */
export function needsDeliveryAddress(voucherCount: number, postalEventCount: number): boolean {
  return voucherCount > 0 || postalEventCount > 0;
}

/** How many of these events post their tickets. */
export async function countPostalEvents(db: Pick<Database, 'select'>, eventIds: number[]): Promise<number> {
  if (!eventIds.length) return 0;
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(postalDeliveryEvents)
    .where(inArray(postalDeliveryEvents.eventId, eventIds));
  return row?.n ?? 0;
}

export type DeliveryAddressRequest = ParsedRequestOf<'setDeliveryAddress'>;

function fieldsOf(address: DeliveryAddressRequest['address']): AddressFields {
  return {
    first_name: address.first_name ?? '',
    last_name: address.last_name ?? '',
    address_1: address.address_1 ?? '',
    address_2: address.address_2 ?? '',
    town: address.town ?? '',
    postcode: address.postcode ?? '',
    country: address.country ?? emptyAddressFields.country,
    state: address.state ?? '',
  };
}

const trimmed = (f: AddressFields): AddressFields =>
  Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v.trim()])) as AddressFields;

/**
 * set_delivery_address: the same rules as the form (spec 000 §5, spec 001 §5) checked again, the
 * countries and states the server offers, a saved address only of the buyer's own, all on a sale
 * whose tickets are still held. A refusal changes nothing. A signed-in buyer's new address is
 * saved for next time.
 */
export async function setDeliveryAddress(
  db: Database,
  saleId: string,
  userId: number | null,
  request: DeliveryAddressRequest,
  now: Date,
): Promise<void> {
  const [sale] = await db.select().from(sales).where(eq(sales.id, saleId)).limit(1);
  if (!sale || !holdIsLive(sale, now)) throw new Refusal('hold-lost', ADDRESS_MESSAGES.unableToSetDelivery);
  const [vouchers] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(saleVouchers)
    .where(eq(saleVouchers.saleId, saleId));
  const giftVouchers = (vouchers?.n ?? 0) > 0;

  const selected =
    request.address.selected_user_address_id === 'new' ? 'new' : Number(request.address.selected_user_address_id);
  const form: AddressForm = {
    selected,
    fields: fieldsOf(request.address),
    giftVoucherFrom: request.gift_voucher_from ?? '',
    giftVoucherTo: request.gift_voucher_to ?? '',
  };
  const problems = addressProblems(form, { purpose: 'delivery', giftVouchers });
  const first = Object.values(problems)[0];
  if (first) throw new Refusal('invalid-input', ADDRESS_MESSAGES[first]);

  let fields: AddressFields;
  let userAddressId: number | null = null;
  if (selected === 'new') {
    fields = trimmed(form.fields);
    if (!isCountry(fields.country)) throw new Refusal('invalid-input', ADDRESS_MESSAGES.country);
    if (fields.country !== COUNTRY_USA) fields = { ...fields, state: '' };
    else if (!isState(fields.state)) throw new Refusal('invalid-input', ADDRESS_MESSAGES.state);
  } else {
    const [saved] =
      userId === null
        ? []
        : await db
            .select()
            .from(userAddresses)
            .where(and(eq(userAddresses.id, selected), eq(userAddresses.userId, userId)))
            .limit(1);
    if (!saved) throw new Refusal('not-found', ADDRESS_MESSAGES.savedAddressGone);
    userAddressId = saved.id;
    fields = {
      first_name: saved.firstName,
      last_name: saved.lastName,
      address_1: saved.address1,
      address_2: saved.address2,
      town: saved.town,
      postcode: saved.postcode,
      country: saved.country,
      state: saved.state,
    };
  }

  const row = {
    userAddressId,
    firstName: fields.first_name,
    lastName: fields.last_name,
    address1: fields.address_1,
    address2: fields.address_2,
    town: fields.town,
    postcode: fields.postcode,
    country: fields.country,
    state: fields.state,
    giftVoucherFrom: giftVouchers ? form.giftVoucherFrom.trim() : '',
    giftVoucherTo: giftVouchers ? form.giftVoucherTo.trim() : '',
    setAt: now,
  };
  await db.transaction(async (tx) => {
    if (selected === 'new' && userId !== null) {
      const [same] = await tx
        .select({ id: userAddresses.id })
        .from(userAddresses)
        .where(
          and(
            eq(userAddresses.userId, userId),
            eq(userAddresses.firstName, row.firstName),
            eq(userAddresses.lastName, row.lastName),
            eq(userAddresses.address1, row.address1),
            eq(userAddresses.postcode, row.postcode),
            eq(userAddresses.country, row.country),
          ),
        )
        .limit(1);
      if (same) row.userAddressId = same.id;
      else {
        const [saved] = await tx
          .insert(userAddresses)
          .values({
            userId,
            firstName: row.firstName,
            lastName: row.lastName,
            address1: row.address1,
            address2: row.address2,
            town: row.town,
            postcode: row.postcode,
            country: row.country,
            state: row.state,
            createdAt: now,
          })
          .returning({ id: userAddresses.id });
        row.userAddressId = saved!.id;
      }
    }
    await tx
      .insert(saleDeliveryAddresses)
      .values({ saleId, ...row })
      .onConflictDoUpdate({ target: saleDeliveryAddresses.saleId, set: row });
  });
}

/** The sale's delivery address as set, for the server's own pages and tests. */
export async function findDeliveryAddress(db: Database, saleId: string) {
  const [found] = await db
    .select()
    .from(saleDeliveryAddresses)
    .where(eq(saleDeliveryAddresses.saleId, saleId))
    .limit(1);
  return found ?? null;
}
