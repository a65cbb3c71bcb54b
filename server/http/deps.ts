import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { CaptchaProvider } from '../domain/captcha.ts';
import type { Mailer } from '../mail/index.ts';
import type { PaymentWiring } from './paymentApi.ts';
import type { BankWiring } from './bankTransferApi.ts';
import type { PlanWiring } from './instalmentApi.ts';

export interface AppDeps {
  db: Database;
  config: Config;
  clock: () => Date;
  /** The provider reservations are checked with. */
  captcha: CaptchaProvider;
  /** The self-hosted challenge source; null when hCaptcha is configured instead. */
  altcha: { challenge(): Promise<object> } | null;
  /** Where the product's mail goes: the outbox, and SMTP when configured. */
  mailer: Mailer;
  /** The card processor (Stripe when keyed, else the sandbox) and the payment grace. */
  payment: PaymentWiring;
  /** The bank for instant bank transfer (TrueLayer when keyed, else the sandbox bank) and its poll interval. */
  bank: BankWiring;
  /** Saved cards for instalment plans, and Square: real when keyed, the sandbox otherwise. */
  plans: PlanWiring;
}
