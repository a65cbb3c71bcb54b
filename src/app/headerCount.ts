/**
 * The checkout's header is the server's (server/views/html.ts `checkoutShell`, drawn from
 * ui/SiteHeader.tsx): the app keeps only its basket count (spec 001 §9) as the checkout announces it
 * (basketCount.ts), with the markup SiteHeader draws for it.
 */
import { itemCount } from '../../ui/plural';
import { onBasketCount } from './basketCount';

/** The header's Basket link: its count follows every count announced. Without a header, nothing. */
export function followBasketCount(doc: Document = document): () => void {
  const link = doc.querySelector<HTMLElement>('.site-header a[href="/checkout/"]');
  if (!link || !doc.defaultView) return () => undefined;
  return onBasketCount((count) => showCount(link, count), doc.defaultView);
}

/** Draws `count` on the Basket link as SiteHeader does: nothing at 0. */
export function showCount(link: HTMLElement, count: number): void {
  let badge = link.querySelector<HTMLElement>('.site-header__count');
  if (count <= 0) {
    badge?.remove();
    return;
  }
  if (!badge) {
    badge = link.ownerDocument.createElement('span');
    badge.className = 'site-header__count';
    badge.dataset.testid = 'basket-count';
    badge.innerHTML = '<span aria-hidden="true"></span><span class="visually-hidden"></span>';
    link.append(badge);
  }
  badge.children[0]!.textContent = String(count);
  badge.children[1]!.textContent = itemCount(count);
}
