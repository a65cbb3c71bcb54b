/**
 * The basket as the page's first paint: the app's own basket screen (src/steps/basket/BasketScreen)
 * drawn on the server from the checkout and user the page carries, as the basket chart shows them
 * before any edit. The app draws the same screen from the same data as its first commit, so the
 * buyer sees the basket at once and the app takes it over without a flash. Until then it is inert:
 * a control pressed before the app runs would do nothing, so none can be pressed or focused.
 */
import { renderToString } from 'react-dom/server';
import { connectBasket } from '../../machines/basket/basket.connect.ts';
import type { Checkout, User } from '../../contract/index.ts';
import { BasketScreen } from '../../src/steps/basket/BasketScreen.tsx';

const nothing = () => undefined;

export function basketScreenHtml(checkout: Checkout, user: User | null): string {
  return renderToString(
    <BasketScreen
      checkout={checkout}
      user={user}
      basket={connectBasket(undefined, undefined)}
      expiredMessage={null}
      reserving={false}
      sendBasket={nothing}
      onReserve={nothing}
      painted
    />,
  );
}
