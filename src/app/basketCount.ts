/**
 * The basket count in the site header (spec 001 §9). The checkout announces the count as a
 * browser event; until the site has finished loading it announces it again every 10 ms, so a
 * header that starts listening later (the page's own, or a host page's) still hears it.
 */
export { basketCount } from '../../contract/basketRules';

export const BASKET_COUNT_EVENT = 'basket-count';
/** How often the count is announced again until the site has loaded (spec 001 §9). */
export const BASKET_COUNT_POLL_MS = 10;

export type BasketCountEvent = CustomEvent<{ count: number }>;

let latest = 0;
let poll: number | undefined;

function announce(target: Window): void {
  target.dispatchEvent(new CustomEvent(BASKET_COUNT_EVENT, { detail: { count: latest } }));
}

/** Announces the count now, and every 10 ms after until the document has finished loading. */
export function publishBasketCount(count: number, target: Window = window): void {
  latest = count;
  announce(target);
  if (poll !== undefined || target.document.readyState === 'complete') return;
  poll = target.setInterval(() => {
    announce(target);
    if (target.document.readyState === 'complete') {
      target.clearInterval(poll);
      poll = undefined;
    }
  }, BASKET_COUNT_POLL_MS);
}

/** Calls `listener` with each count announced. */
export function onBasketCount(listener: (count: number) => void, target: Window = window): () => void {
  const handler = (event: Event) => listener((event as BasketCountEvent).detail.count);
  target.addEventListener(BASKET_COUNT_EVENT, handler);
  return () => target.removeEventListener(BASKET_COUNT_EVENT, handler);
}
