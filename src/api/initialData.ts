/**
 * The first checkout and user, sent with the page by the server (see INITIAL_DATA_ID): put in the
 * query cache before the first render, and handed once to the first read of the checkout, so the
 * first screen needs no call. Anything missing or malformed is ignored and the app asks as usual.
 */
import type { QueryClient } from '@tanstack/react-query';
import type { Checkout } from '../../contract';
import { INITIAL_DATA_ID } from '../../contract/page';
import { checkoutQuery, userQuery } from './queries';

let firstCheckout: Checkout | null = null;

/** The shape a checkout and a user reply have at a glance; the contract checks the rest. */
function looksLikeCheckout(value: unknown): value is Checkout {
  return typeof value === 'object' && value !== null && typeof (value as { state?: unknown }).state === 'string';
}
function looksLikeUserReply(value: unknown): value is { user: unknown } {
  return typeof value === 'object' && value !== null && 'user' in value;
}

/**
 * Puts the page's data in the cache before the first render, so the first screen needs neither a
 * call nor the contract's schemas (the server checked the data against the contract before
 * sending it). The contract's schemas of those two calls, loaded when `later` says (the app: once
 * its first screen is shown), then check it here too: the promise resolves once it has, and anything the contract refuses is
 * taken out of the cache and asked of the server again.
 */
export function seedInitialData(
  queryClient: QueryClient,
  doc: Document = document,
  later: (check: () => void) => void = (check) => check(),
): Promise<void> {
  const element = doc.getElementById(INITIAL_DATA_ID);
  if (!element?.textContent) return Promise.resolve();
  element.remove();
  let raw: { checkout?: unknown; user?: unknown };
  try {
    raw = JSON.parse(element.textContent) as typeof raw;
  } catch {
    return Promise.resolve();
  }
  const seededCheckout = looksLikeCheckout(raw.checkout) ? raw.checkout : null;
  const seededUser = looksLikeUserReply(raw.user) ? raw.user : null;
  if (seededCheckout) {
    firstCheckout = seededCheckout;
    queryClient.setQueryData(checkoutQuery().queryKey, seededCheckout);
  }
  if (seededUser) queryClient.setQueryData(userQuery().queryKey, seededUser.user as never);
  if (!seededCheckout && !seededUser) return Promise.resolve();
  return new Promise<void>((resolve, reject) =>
    later(() => void verify(queryClient, seededCheckout, seededUser).then(resolve, reject)),
  );
}

async function verify(
  queryClient: QueryClient,
  seededCheckout: Checkout | null,
  seededUser: { user: unknown } | null,
): Promise<void> {
  const schema = (name: 'getCheckout' | 'getUser') =>
    import('./contractSlices')
      .then(({ findCall }) => findCall(name))
      .then(
        (c) => c.response,
        () => null,
      );
  if (seededCheckout && !(await schema('getCheckout'))?.safeParse(seededCheckout).success) {
    if (firstCheckout === seededCheckout) firstCheckout = null;
    if (queryClient.getQueryData(checkoutQuery().queryKey) === seededCheckout) {
      queryClient.removeQueries({ queryKey: checkoutQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: checkoutQuery().queryKey });
    }
  }
  if (seededUser && !(await schema('getUser'))?.safeParse(seededUser).success) {
    queryClient.removeQueries({ queryKey: userQuery().queryKey });
  }
}

/** The checkout sent with the page, once; afterwards null, and every read goes to the server. */
export function takeInitialCheckout(): Checkout | null {
  const checkout = firstCheckout;
  firstCheckout = null;
  return checkout;
}
