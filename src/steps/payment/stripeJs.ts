/**
 * Stripe.js for the card forms (a payment's Payment Element, a plan card's SetupIntent), in their
 * own chunks only: set up once per publishable key, and handed the design tokens in force.
 */
import { loadStripe } from '@stripe/stripe-js/pure';
import type { Appearance } from '@stripe/stripe-js';

/** Stripe's frames cannot read the page's styles: the design tokens in force (light or dark) are handed over. */
export function appearanceFromTokens(): Appearance {
  const style = getComputedStyle(document.body);
  const token = (name: string) => style.getPropertyValue(name).trim() || undefined;
  return {
    theme: document.body.classList.contains('dark') ? 'night' : 'stripe',
    variables: {
      colorPrimary: token('--brand'),
      colorBackground: token('--surface'),
      colorText: token('--text'),
      colorDanger: token('--error'),
      borderRadius: token('--radius-small'),
      fontSizeBase: '16px',
    },
  };
}

/** Stripe.js is set up once per publishable key, however often a card form renders or remounts; a failed load may be tried again. */
const stripes = new Map<string, ReturnType<typeof loadStripe>>();
export function stripeFor(publicKey: string): ReturnType<typeof loadStripe> {
  let loading = stripes.get(publicKey);
  if (!loading) {
    loading = loadStripe(publicKey);
    stripes.set(publicKey, loading);
    loading.then(
      (loaded) => {
        if (!loaded) stripes.delete(publicKey);
      },
      () => stripes.delete(publicKey),
    );
  }
  return loading;
}
