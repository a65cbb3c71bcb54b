/** The card processor this server pays with: Stripe when keyed, else the sandbox processor it serves itself. */
import type { Config, PaymentSettings } from '../config.ts';
import type { CardProcessor, CardWebhook } from '../domain/payment/processor.ts';
import { sandboxProcessor } from '../domain/payment/sandbox.ts';
import { stripeProcessor, stripeWebhookReader } from './stripe.ts';

export interface PaymentWiring {
  settings: PaymentSettings;
  processor: CardProcessor;
  /** Reads Stripe's webhook (signature and event) when its endpoint secret is set; null: no webhook is served. */
  webhook: ((raw: string, signature: string | undefined, now: Date) => CardWebhook) | null;
}

export function paymentWiring(config: Pick<Config, 'payment'>, fetchImpl?: typeof fetch): PaymentWiring {
  const settings = config.payment;
  const webhookSecret = settings.stripe?.webhookSecret ?? null;
  return {
    settings,
    processor: settings.stripe ? stripeProcessor(settings.stripe, fetchImpl) : sandboxProcessor(),
    webhook: webhookSecret ? stripeWebhookReader(webhookSecret) : null,
  };
}
