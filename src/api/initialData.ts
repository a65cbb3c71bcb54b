/**
 * The first checkout and user, sent with the page by the server (see INITIAL_DATA_ID): put in the
 * query cache before the first render, and handed once to the first read of the checkout, so the
 * first screen needs no call. Anything missing or malformed is ignored and the app asks as usual.
 */
import type { QueryClient } from '@tanstack/react-query';
import { appCalls as calls, INITIAL_DATA_ID, type Checkout } from '../../contract';
import { checkoutQuery, userQuery } from './queries';

let firstCheckout: Checkout | null = null;

export function seedInitialData(queryClient: QueryClient, doc: Document = document): void {
  const element = doc.getElementById(INITIAL_DATA_ID);
  if (!element?.textContent) return;
  element.remove();
  let raw: { checkout?: unknown; user?: unknown };
  try {
    raw = JSON.parse(element.textContent) as typeof raw;
  } catch {
    return;
  }
  const checkout = calls.getCheckout.response.safeParse(raw.checkout);
  const user = calls.getUser.response.safeParse(raw.user);
  if (checkout.success) {
    firstCheckout = checkout.data;
    queryClient.setQueryData(checkoutQuery().queryKey, checkout.data);
  }
  if (user.success) queryClient.setQueryData(userQuery().queryKey, user.data.user);
}

/** The checkout sent with the page, once; afterwards null, and every read goes to the server. */
export function takeInitialCheckout(): Checkout | null {
  const checkout = firstCheckout;
  firstCheckout = null;
  return checkout;
}
