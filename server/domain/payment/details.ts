/**
 * What the payment step saves before the card is taken: the billing address and contact number
 * (set_billing_address), or an express buyer's details (set_account_details). An express buyer's
 * address becomes an account only once it is proven with its one-time code; until then the sale
 * carries the address and name for delivery only (account.ts makes the account at that proof).
 */
import { and, eq } from 'drizzle-orm';
import { unchecked } from '../../../contract/unchecked.ts';
import type { Database } from '../../db/index.ts';
import { saleDeliveryAddresses, salePaymentDetails, sales, userAddresses, users } from '../../db/schema.ts';
import { countryOfIso, isCountry, isoOfCountry, isState } from '../addressCountries.ts';
import {
  COUNTRY_UK,
  COUNTRY_USA,
  EMPTY_BILLING_ADDRESS,
  isFullName,
  isValidExpressEmail,
  isValidPhone,
  type BillingAddress,
} from '../../../contract/index.ts';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address.ts';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment.ts';
import { Refusal } from '../refusal.ts';
import { holdIsLive, lockSale, type Sale } from '../sales.ts';
import { setMarketingPreferences } from '../marketing.ts';
import { holdLost } from './payments.ts';

/** A postcode or zip code as the address lookup knows them: letters and digits, at least one digit. */
const POSTCODE = /^(?=.*\d)[A-Za-z0-9][A-Za-z0-9 -]{1,9}$/;

function refusePhone(contactNumber: string | undefined, required: boolean) {
  const phone = contactNumber?.trim() ?? '';
  if ((required || phone !== '') && !isValidPhone(phone)) throw new Refusal('invalid-details', PAYMENT_MESSAGES.phone);
}

/** The billing address as sent (see billingAddressSchema): a saved address, or the fields. */
export type BillingRequest = Partial<BillingAddress> & { selected_user_address_id?: string; country?: string };

/**
 * The address a billing request names, checked: a saved address only of the signed-in buyer's own,
 * a country and (for the USA) a state the form offers. The postcode is the one field billing
 * requires (spec 001 §5); the form asks for the rest.
 */
async function billingAddressOf(
  db: Pick<Database, 'select'>,
  request: BillingRequest,
  userId: number | null,
): Promise<{ address: BillingAddress; country: string; userAddressId: number | null }> {
  const chosen = request.selected_user_address_id;
  if (chosen !== undefined && chosen !== 'new') {
    const [saved] =
      userId === null
        ? []
        : await db
            .select()
            .from(userAddresses)
            .where(and(eq(userAddresses.id, Number(chosen)), eq(userAddresses.userId, userId)))
            .limit(1);
    if (!saved) throw new Refusal('not-found', ADDRESS_MESSAGES.savedAddressGone);
    const address: BillingAddress = {
      first_name: saved.firstName,
      last_name: saved.lastName,
      address_1: saved.address1,
      address_2: saved.address2,
      town: saved.town,
      postcode: saved.postcode.toUpperCase(),
      state: saved.state,
      country_code: isoOfCountry(saved.country) || EMPTY_BILLING_ADDRESS.country_code,
    };
    return { address, country: saved.country, userAddressId: saved.id };
  }
  const postcode = request.postcode?.trim() ?? '';
  if (!postcode) throw new Refusal('invalid-details', ADDRESS_MESSAGES.billingPostcode);
  if (!POSTCODE.test(postcode)) throw new Refusal('invalid-details', ADDRESS_MESSAGES.unableToFindBilling);
  // The form names the country by its id; other senders by its ISO code.
  const country =
    request.country?.trim() || countryOfIso(request.country_code?.trim() || EMPTY_BILLING_ADDRESS.country_code);
  if (!isCountry(country)) throw new Refusal('invalid-details', ADDRESS_MESSAGES.country);
  const state = request.state?.trim() ?? '';
  if (country === COUNTRY_USA && request.country !== undefined && !isState(state))
    throw new Refusal('invalid-details', ADDRESS_MESSAGES.state);
  const address: BillingAddress = {
    first_name: request.first_name?.trim() ?? '',
    last_name: request.last_name?.trim() ?? '',
    address_1: request.address_1?.trim() ?? '',
    address_2: request.address_2?.trim() ?? '',
    town: request.town?.trim() ?? '',
    postcode: postcode.toUpperCase(),
    state: country === COUNTRY_USA ? state : request.country !== undefined ? '' : state,
    country_code: isoOfCountry(country),
  };
  return { address, country, userAddressId: null };
}

export async function setBillingAddress(
  db: Database,
  p: {
    saleId: string;
    address: BillingRequest;
    userId?: number | null;
    contactNumber?: string;
    phoneRequired: boolean;
    now: Date;
  },
): Promise<BillingAddress & { id: number }> {
  const { address, country, userAddressId } = await billingAddressOf(db, p.address, p.userId ?? null);
  refusePhone(p.contactNumber, p.phoneRequired);
  return db.transaction(async (tx) => {
    const sale = await lockSale(tx, p.saleId);
    if (!sale.paidAt && !holdIsLive(sale, p.now)) throw holdLost();
    // Kept with the form's country id and the saved address chosen, so the form starts from them again.
    const kept: Record<string, string> = {
      ...address,
      country,
      ...(userAddressId !== null ? { selected_user_address_id: String(userAddressId) } : {}),
    };
    const values = { billingAddress: kept, contactNumber: p.contactNumber?.trim() || null };
    await tx
      .insert(salePaymentDetails)
      .values({ saleId: p.saleId, ...values })
      .onConflictDoUpdate({ target: salePaymentDetails.saleId, set: values });
    // A sale has one billing address, so its id is always 1.
    return { ...address, id: 1 };
  });
}

/** The billing address the form starts from, with the form's country id and the saved address chosen. */
export type BillingPrefill = BillingAddress & { country?: string; selected_user_address_id?: string };

/**
 * The billing address the payment step starts from: the one last saved for this sale (kept after a
 * declined card), else the sale's delivery address, else the name of the account the sale is for.
 */
export async function billingPrefill(db: Pick<Database, 'select'>, saleId: string): Promise<BillingPrefill> {
  const [details] = await db
    .select({ billing: salePaymentDetails.billingAddress })
    .from(salePaymentDetails)
    .where(eq(salePaymentDetails.saleId, saleId));
  if (details?.billing) {
    // Built field by field from the empty billing address's keys.
    const saved = unchecked<BillingAddress>(
      Object.fromEntries(Object.keys(EMPTY_BILLING_ADDRESS).map((k) => [k, details.billing?.[k] ?? ''])),
    );
    const country_code = saved.country_code || EMPTY_BILLING_ADDRESS.country_code;
    const chosen = details.billing.selected_user_address_id;
    return {
      ...saved,
      country_code,
      country: details.billing.country || countryOfIso(country_code) || COUNTRY_UK,
      ...(chosen ? { selected_user_address_id: chosen } : {}),
    };
  }
  const [delivery] = await db.select().from(saleDeliveryAddresses).where(eq(saleDeliveryAddresses.saleId, saleId));
  if (delivery) {
    return {
      ...EMPTY_BILLING_ADDRESS,
      first_name: delivery.firstName,
      last_name: delivery.lastName,
      address_1: delivery.address1,
      address_2: delivery.address2,
      town: delivery.town,
      postcode: delivery.postcode,
      state: delivery.state,
      country_code: isoOfCountry(delivery.country) || EMPTY_BILLING_ADDRESS.country_code,
      country: delivery.country,
    };
  }
  const [account] = await db
    .select({ firstName: users.firstName, lastName: users.lastName })
    .from(sales)
    .innerJoin(users, eq(users.id, sales.userId))
    .where(eq(sales.id, saleId));
  return account
    ? { ...EMPTY_BILLING_ADDRESS, first_name: account.firstName, last_name: account.lastName }
    : EMPTY_BILLING_ADDRESS;
}

/**
 * Express details naming an account the buyer has not proved is theirs: the one-time code sent to
 * its address (the checkout's normal sign-in) is the only proof, so nothing is attached to it.
 */
function existingAccount(): Refusal {
  return new Refusal('account-exists', PAYMENT_MESSAGES.existingAccount);
}

/** Not in the spec: account details for an address no one proved, where the checkout offers no express checkout. */
export const PROVE_ADDRESS_FIRST_MESSAGE =
  'Please sign in with the one-time code we email to your address before paying.';

/**
 * Whether this buyer has proved they hold the account: signed in to it with its code, the sale
 * already theirs (made theirs by that sign-in), or the address proved with its code on this sale.
 */
function holdsAccount(account: { id: number; email: string }, sale: Sale, signedInUserId: number | null): boolean {
  return account.id === signedInUserId || account.id === sale.userId || account.email === sale.verifiedEmail;
}

/** What set_account_details did: the sale is now an account's (sign the browser in as it), or carries an unproven address. */
export type AccountDetailsOutcome = { account: true; userId: number } | { account: false };

/**
 * set_account_details. An address with an account the buyer holds (signed in, or proved with its
 * code on this sale) makes the sale that account's, with the buyer's marketing choices. An address
 * with an account the buyer does not hold is refused ('account-exists'), so a sale, consent, a Gift
 * Aid declaration in the account's name or a saved card can never be attached to somebody else's
 * account. A new address proved on this sale makes its account now. A new address no one proved
 * makes no account: where the checkout is express the sale carries it, with the name and the
 * marketing choices, for delivery only, and the account is made when the address's code is proven
 * (signInWithCode); where it is not, the buyer is asked to sign in with the code first.
 */
export async function setAccountDetails(
  db: Database,
  p: {
    saleId: string;
    fullname: string;
    email: string;
    contactNumber?: string;
    phoneRequired: boolean;
    organiserSubscribed: Record<string, boolean>;
    ctSubscribed: boolean;
    /** The account this browser is signed in to, if any. */
    signedInUserId: number | null;
    /** Whether the checkout offers express checkout to this buyer. */
    express: boolean;
    now: Date;
  },
): Promise<AccountDetailsOutcome> {
  if (!isFullName(p.fullname)) throw new Refusal('invalid-details', PAYMENT_MESSAGES.fullName);
  const email = p.email.trim().toLowerCase();
  if (!isValidExpressEmail(email)) throw new Refusal('invalid-details', PAYMENT_MESSAGES.email);
  refusePhone(p.contactNumber, p.phoneRequired);
  const fullname = p.fullname.trim().replace(/\s+/g, ' ');
  const [first, ...rest] = fullname.split(' ');
  const outcome = await db.transaction(async (tx): Promise<AccountDetailsOutcome> => {
    const sale = await lockSale(tx, p.saleId);
    if (!holdIsLive(sale, p.now)) throw holdLost();
    const [existing] = await tx.select().from(users).where(eq(users.email, email));
    if (existing && !holdsAccount(existing, sale, p.signedInUserId)) throw existingAccount();
    const values = { contactNumber: p.contactNumber?.trim() || null };
    await tx
      .insert(salePaymentDetails)
      .values({ saleId: p.saleId, ...values })
      .onConflictDoUpdate({ target: salePaymentDetails.saleId, set: values });
    const noPendingBuyer = { buyerEmail: null, buyerName: null, buyerMarketing: null };
    if (existing) {
      await tx
        .update(sales)
        .set({ userId: existing.id, ...noPendingBuyer })
        .where(eq(sales.id, sale.id));
      return { account: true, userId: existing.id };
    }
    if (sale.verifiedEmail === email) {
      // Proved with its code on this sale a moment ago: the account is made now, as saving the guest's name does.
      const [made] = await tx
        .insert(users)
        .values({ email, firstName: first!, lastName: rest.join(' '), viewType: 'customer', emailProvenAt: p.now })
        .onConflictDoNothing({ target: users.email })
        .returning();
      if (!made) throw existingAccount();
      await tx
        .update(sales)
        .set({ userId: made.id, verifiedEmail: null, ...noPendingBuyer })
        .where(eq(sales.id, sale.id));
      return { account: true, userId: made.id };
    }
    if (!p.express || sale.userId !== null) throw new Refusal('sign-in-needed', PROVE_ADDRESS_FIRST_MESSAGE);
    await tx
      .update(sales)
      .set({
        buyerEmail: email,
        buyerName: fullname,
        buyerMarketing: { ct_subscribed: p.ctSubscribed, organiser_subscribed_marketing: p.organiserSubscribed },
        marketingSetAt: p.now,
      })
      .where(eq(sales.id, sale.id));
    return { account: false };
  });
  if (outcome.account) {
    await setMarketingPreferences(
      db,
      p.saleId,
      { ct_subscribed: p.ctSubscribed, event_subscribed: false, organiser_subscribed_marketing: p.organiserSubscribed },
      p.now,
    );
  }
  return outcome;
}
