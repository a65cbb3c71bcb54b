/**
 * Every outside service the server talks to, built once from the configuration: each is the real
 * provider when its keys are set, and otherwise the working local default this server serves
 * itself. Routes receive them ready made; nothing else reads the keys.
 */
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import { forgiving, getAddressFinder, localAddressFinder, type AddressFinder } from '../domain/addressLookup.ts';
import { hcaptcha, localCaptcha, type CaptchaProvider } from '../domain/captcha.ts';
import { smtpTransport, type Mailer } from '../mail/index.ts';
import { twilioSender, type SmsSender } from '../sms/index.ts';
import { bankWiring, type BankWiring } from './bank.ts';
import { paymentWiring, type PaymentWiring } from './payment.ts';
import { planWiring, type PlanWiring } from './plans.ts';
import { seatingWiring } from './seating.ts';
import type { SeatingProvider } from '../domain/seating/provider.ts';

export type { BankWiring, PaymentWiring, PlanWiring };

export interface Providers {
  /** The provider reservations are checked with. */
  captcha: CaptchaProvider;
  /** The self-hosted challenge source; null when hCaptcha is configured instead. */
  altcha: { challenge(): Promise<object> } | null;
  /** Where the product's mail goes: the outbox, and SMTP when configured. */
  mailer: Mailer;
  /** Where text messages go besides the outbox: Twilio when keyed, else nowhere (null). */
  sms: SmsSender | null;
  /** The card processor (Stripe when keyed, else the sandbox) and the payment grace. */
  payment: PaymentWiring;
  /** The bank for instant bank transfer (TrueLayer when keyed, else the sandbox bank) and its poll interval. */
  bank: BankWiring;
  /** Saved cards for instalment plans, and Square: real when keyed, the sandbox otherwise. */
  plans: PlanWiring;
  /** The UK address API when keyed, else the local index; its failures are an empty list. */
  addressFinder: AddressFinder;
  /** seats.io when keyed (its SDK loaded on first use); null: our own seat map and holds. */
  seating: SeatingProvider | null;
}

/** `fetch` reaches every provider's API (tests hand in their own). */
export function buildProviders(config: Config, db: Database, options: { fetch?: typeof fetch } = {}): Providers {
  const local = localCaptcha(db, config.altchaHmacKey, config.altchaMaxNumber);
  const seating = seatingWiring(config);
  return {
    captcha: config.hcaptcha ? hcaptcha(config.hcaptcha, options.fetch) : local,
    altcha: config.hcaptcha ? null : local,
    mailer: mailerOf(config),
    sms: config.sms ? twilioSender(config.sms) : null,
    payment: paymentWiring(config, options.fetch),
    bank: bankWiring(config, options.fetch),
    plans: planWiring(db, config, options.fetch),
    addressFinder: forgiving(
      config.addressApiKey ? getAddressFinder(config.addressApiKey, options.fetch) : localAddressFinder(db),
    ),
    seating,
  };
}

/** SMTP when SMTP_URL is set; the outbox (and /dev/mailbox) always. */
export function mailerOf(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer {
  return { transport: config.smtpUrl ? smtpTransport(config.smtpUrl) : null, from: config.mailFrom };
}
