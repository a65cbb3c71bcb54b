/** The card processor this server pays with: Stripe when keyed, else the sandbox processor it serves itself. */
import type { Config } from '../config.ts';
import type { CardProcessor, PaymentSettings } from '../domain/payment/processor.ts';
import { sandboxProcessor } from '../domain/payment/sandbox.ts';
import { stripeProcessor } from '../domain/payment/stripe.ts';

export interface PaymentWiring {
  settings: PaymentSettings;
  processor: CardProcessor;
}

export function paymentWiring(config: Pick<Config, 'payment'>, fetchImpl?: typeof fetch): PaymentWiring {
  const settings = config.payment;
  return { settings, processor: settings.stripe ? stripeProcessor(settings.stripe, fetchImpl) : sandboxProcessor() };
}
