import type { basketMachine } from '../../../machines/basket/basket.machine';
import { useStepChild } from '../useStepChild';
import { useSelector } from '@xstate/react';
import { useEffect, useRef } from 'react';
import { connectBasket } from '../../../machines/basket/basket.connect';
import type { BasketEvent } from '../../../machines/basket/basket.types.ts';
import { useCheckout, useCheckoutData, useUser } from '../../app/checkoutContext';
import { useHeadingFocus } from '../useHeadingFocus';
import { BasketScreen, isEmptyBasket } from '../../../ui/basket/BasketScreen';

type BasketSnapshot = Parameters<typeof connectBasket>[0];

/** The basket step: the basket screen drawn from the root chart, its basket child and the server's data. */
export function BasketStep() {
  const view = useCheckout();
  const checkout = useCheckoutData();
  const user = useUser();
  const basketRef = useStepChild<typeof basketMachine>('basket');
  const basketSnapshot = useSelector(basketRef, (s) => s as BasketSnapshot);
  const sendBasket = (event: BasketEvent) => basketRef?.send(event);
  const basket = connectBasket(basketSnapshot, sendBasket);
  const headingRef = useHeadingFocus();
  const empty = checkout !== null && checkout !== undefined && isEmptyBasket(checkout);

  // Removing the last line leaves the empty basket: focus goes to the heading, not the page body.
  const wasFilled = useRef(false);
  useEffect(() => {
    if (empty && wasFilled.current && document.activeElement === document.body) headingRef.current?.focus();
    wasFilled.current = checkout !== null && checkout !== undefined && !empty;
  }, [empty, checkout, headingRef]);

  return (
    <BasketScreen
      checkout={checkout}
      user={user}
      basket={basket}
      expiredMessage={view.expiredMessage}
      reserving={view.isReserving}
      onReserve={view.reserve}
      headingRef={headingRef}
    />
  );
}
