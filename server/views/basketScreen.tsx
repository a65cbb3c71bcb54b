/**
 * The basket as the page's first paint: the app's own basket screen (ui/basket/BasketScreen)
 * drawn on the server from the checkout and user the page carries, as the basket chart shows them
 * before any edit. The app draws the same screen from the same data as its first commit, so the
 * buyer sees the basket at once and the app takes it over without a flash. Until then it is inert:
 * a control pressed before the app runs would do nothing, so none can be pressed or focused.
 */
import { renderToString } from 'react-dom/server';
import { IDLE_BASKET } from '../../contract/basketRules.ts';
import type { Checkout, User } from '../../contract/index.ts';
import { BasketScreen, PAINTED_SENDERS } from '../../ui/basket/BasketScreen.tsx';

const nothing = () => undefined;

export function basketScreenHtml(checkout: Checkout, user: User | null): string {
  return renderToString(
    <BasketScreen
      checkout={checkout}
      user={user}
      basket={{ ...IDLE_BASKET, ...PAINTED_SENDERS }}
      expiredMessage={null}
      reserving={false}
      onReserve={nothing}
      painted
    />,
  );
}
