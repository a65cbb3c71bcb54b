/**
 * Square's API through its official SDK (`square`), when SQUARE_APPLICATION_ID, SQUARE_ACCESS_TOKEN
 * and SQUARE_LOCATION_ID are set: CreatePayment under an idempotency key per sale and attempt with
 * `autocomplete: false`, CompletePayment, CancelPayment, GetPayment, ListPayments (a payment whose id
 * never reached the ledger is found by the key in its note) and RefundPayment. SQUARE_API_BASE points
 * the SDK elsewhere than Square's API (a local stand-in in tests). The payment's life in the ledger
 * is the domain's (server/domain/payment/square.ts).
 */
import type { Square } from 'square';
import type { SquareKeys } from '../config.ts';
import { ADDRESS_MESSAGES } from '../../contract/messages/address.ts';
import { PAYMENT_MESSAGES } from '../../contract/messages/payment.ts';
import type { RetrievedPayment } from '../domain/payment/processor.ts';
import { isPlaceholder, PLACEHOLDER_PREFIX, squareKey, type SquareGateway } from '../domain/payment/square.ts';

const isSandboxApp = (keys: SquareKeys) => keys.applicationId.startsWith('sandbox-');
/** Square's Web Payments SDK script, which @square/web-sdk loads in the browser. */
export const squareScript = (keys: SquareKeys) =>
  isSandboxApp(keys) ? 'https://sandbox.web.squarecdn.com/v1/square.js' : 'https://web.squarecdn.com/v1/square.js';

/** Square's card and address error codes, as the buyer is told them. */
const ADDRESS_CODES = new Set(['ADDRESS_VERIFICATION_FAILURE', 'INVALID_POSTAL_CODE', 'INVALID_LOCATION']);

const minor = (amount: bigint | null | undefined) => Number(amount ?? 0n);

/** The note a payment carries at Square: the ledger's key, by which a payment whose id never came back is found. */
const noteOf = (idempotencyKey: string) => `Holdfast ${squareKey(idempotencyKey)}`;
/** How many of the location's latest payments are looked through for one found by its key. */
const KEY_SEARCH_LIMIT = 1000;

/** A payment's status at Square as the ledger reads it. */
function statusOf(payment: Square.Payment): RetrievedPayment['status'] {
  if (payment.status === 'COMPLETED' || payment.status === 'APPROVED') return 'succeeded';
  if (payment.status === 'FAILED' || payment.status === 'CANCELED') return 'failed';
  return 'requires_action';
}

/** Square's API through its SDK: CreatePayment, GetPayment, CancelPayment and RefundPayment. */
export function squareApi(keys: SquareKeys, fetchImpl?: typeof fetch): SquareGateway {
  // The SDK is large: it loads with the first call to Square, so a server without Square's keys
  // (or one whose buyers never pay by Square) does not load it at start.
  let sdk: Promise<{ client: import('square').SquareClient; SquareError: typeof import('square').SquareError }> | null =
    null;
  const square = () =>
    (sdk ??= import('square').then(({ SquareClient, SquareEnvironment, SquareError }) => ({
      client: new SquareClient({
        token: keys.accessToken,
        ...(keys.apiBase
          ? { baseUrl: keys.apiBase }
          : { environment: isSandboxApp(keys) ? SquareEnvironment.Sandbox : SquareEnvironment.Production }),
        ...(fetchImpl ? { fetch: fetchImpl } : {}),
        timeoutInSeconds: 30,
      }),
      SquareError,
    })));
  const errorsOf = async (err: unknown) => {
    const { SquareError } = await square();
    return err instanceof SquareError ? err.errors : null;
  };

  const recordOf = (payment: Square.Payment): RetrievedPayment => ({
    id: payment.id!,
    status: statusOf(payment),
    amount: minor(payment.amountMoney?.amount),
    currency: payment.amountMoney?.currency ?? '',
    failureMessage: null,
  });

  /** The payment Square made under a ledger key (ListPayments, newest first, matched on its note); null when none. */
  async function findByKey(idempotencyKey: string): Promise<Square.Payment | null> {
    const { client } = await square();
    const note = noteOf(idempotencyKey);
    let seen = 0;
    for await (const payment of await client.payments.list({
      locationId: keys.locationId,
      sortOrder: 'DESC',
      limit: 100,
    })) {
      if (payment.note === note && payment.id) return payment;
      if (++seen >= KEY_SEARCH_LIMIT) break;
    }
    return null;
  }

  /** Square's payment for an id of the ledger: read by id, or found by key for a placeholder. */
  async function lookUp(paymentId: string): Promise<Square.Payment | null> {
    if (isPlaceholder(paymentId)) return findByKey(paymentId.slice(PLACEHOLDER_PREFIX.length));
    const { client, SquareError } = await square();
    try {
      return (await client.payments.get({ paymentId })).payment ?? null;
    } catch (err) {
      if (err instanceof SquareError && err.statusCode === 404) return null;
      throw err;
    }
  }

  async function retrieve(paymentId: string): Promise<RetrievedPayment | null> {
    const payment = await lookUp(paymentId);
    return payment?.id ? recordOf(payment) : null;
  }

  return {
    credentials: { app_id: keys.applicationId, location_id: keys.locationId, checkout_js: squareScript(keys) },
    async charge(p) {
      const billing: Square.Address = {
        ...(p.address.first_name ? { firstName: p.address.first_name } : {}),
        ...(p.address.last_name ? { lastName: p.address.last_name } : {}),
        ...(p.address.address_1 ? { addressLine1: p.address.address_1 } : {}),
        ...(p.address.address_2 ? { addressLine2: p.address.address_2 } : {}),
        ...(p.address.town ? { locality: p.address.town } : {}),
        ...(p.address.state ? { administrativeDistrictLevel1: p.address.state } : {}),
        postalCode: p.address.postcode,
        country: (p.address.country_code || 'GB') as Square.Country,
      };
      const { client } = await square();
      try {
        const { payment } = await client.payments.create({
          idempotencyKey: squareKey(p.idempotencyKey),
          sourceId: p.sourceId,
          amountMoney: { amount: BigInt(p.amount), currency: p.currency.toUpperCase() as Square.Currency },
          locationId: keys.locationId,
          // Approved now, completed once the tickets are booked; left alone, Square completes it at the end of its delay.
          autocomplete: false,
          delayAction: 'COMPLETE',
          ...(p.reference ? { referenceId: p.reference } : {}),
          note: noteOf(p.idempotencyKey),
          billingAddress: billing,
        });
        if (payment?.id && statusOf(payment) === 'succeeded') {
          return {
            status: 'succeeded',
            id: payment.id,
            amount: minor(payment.amountMoney?.amount),
            currency: payment.amountMoney?.currency ?? p.currency.toUpperCase(),
          };
        }
        return { status: 'failed', message: PAYMENT_MESSAGES.unableToPay };
      } catch (err) {
        const errors = await errorsOf(err);
        if (!errors || errors.length === 0) return { status: 'unknown', message: PAYMENT_MESSAGES.unableToPay };
        const error = errors[0]!;
        // Square's own failure says nothing of whether it took the card: the payment is looked up by its key later.
        if (error.category === 'API_ERROR' || error.category === 'RATE_LIMIT_ERROR')
          return { status: 'unknown', message: PAYMENT_MESSAGES.unableToPay };
        if (error.code === 'IDEMPOTENCY_KEY_REUSED')
          return { status: 'unknown', message: PAYMENT_MESSAGES.unableToPay };
        if (ADDRESS_CODES.has(error.code)) return { status: 'address', message: ADDRESS_MESSAGES.unableToFindBilling };
        return { status: 'failed', message: error.detail ?? PAYMENT_MESSAGES.unableToPay };
      }
    },
    async refund(p) {
      const { client } = await square();
      // An approved payment was never taken: it is cancelled. One cancelled or failed took nothing.
      const payment = await lookUp(p.paymentId).catch(() => null);
      if (payment?.status === 'APPROVED') {
        await client.payments.cancel({ paymentId: payment.id! });
        return;
      }
      if (payment?.status === 'CANCELED' || payment?.status === 'FAILED') return;
      try {
        await client.refunds.refundPayment({
          idempotencyKey: squareKey(p.idempotencyKey),
          paymentId: payment?.id ?? p.paymentId,
          amountMoney: { amount: BigInt(p.amount), currency: p.currency.toUpperCase() as Square.Currency },
        });
      } catch (err) {
        throw new Error(
          (await errorsOf(err))?.[0]?.detail ?? (err instanceof Error ? err.message : 'Square refused the refund'),
          { cause: err },
        );
      }
    },
    retrieve,
    async cancel(paymentId) {
      const payment = await lookUp(paymentId);
      const { client } = await square();
      if (payment?.status === 'APPROVED') await client.payments.cancel({ paymentId: payment.id! });
    },
    async complete(paymentId) {
      const payment = await lookUp(paymentId);
      if (!payment?.id) throw new Error(`Square knows no payment ${paymentId}`);
      if (payment.status === 'COMPLETED') return;
      const { client } = await square();
      await client.payments.complete({ paymentId: payment.id });
    },
  };
}
