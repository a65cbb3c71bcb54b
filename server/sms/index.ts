/**
 * Text messages (SMS), such as a payment plan's reminder. Like the e-mails, every one is written to
 * the outbox (channel 'sms'), which the development mailbox shows; when Twilio is keyed it is
 * also sent through Twilio's official SDK (loaded only then) and its body is then cleared, as a
 * delivered e-mail's is.
 */
import { eq } from 'drizzle-orm';
import { unchecked } from '../../contract/unchecked.ts';
import type { Database } from '../db/index.ts';
import { outbox } from '../db/schema.ts';
import type { SmsSettings } from '../config.ts';
import type { OutboxRow } from '../mail/index.ts';

export interface SmsMessage {
  /** E.164 (+447700900123): see `phoneForSms`. */
  to: string;
  text: string;
}

/** Something that sends a text message: Twilio when keyed; null keeps messages in the outbox. */
export interface SmsSender {
  send(message: SmsMessage): Promise<{ id: string }>;
}

/** The parts of Twilio's SDK client options this adapter sets: tests hand in an `httpClient` that records and answers. */
export interface TwilioClientOptions {
  httpClient?: {
    request(opts: {
      method: string;
      uri: string;
      data?: unknown;
      headers?: Record<string, string>;
    }): Promise<{ statusCode: number; body: unknown; headers: unknown }>;
  };
}

export function twilioSender(settings: SmsSettings, options: TwilioClientOptions = {}): SmsSender {
  let client: Promise<import('twilio').Twilio> | null = null;
  const load = () =>
    (client ??= import('twilio').then((m) => {
      // The module's callable export, which its types describe only as a namespace.
      const twilio = unchecked<(sid: string, token: string, opts: object) => import('twilio').Twilio>(m.default ?? m);
      return twilio(settings.accountSid, settings.authToken, { ...options, autoRetry: true, maxRetries: 2 });
    }));
  return {
    async send(message) {
      const from = settings.from.startsWith('MG') ? { messagingServiceSid: settings.from } : { from: settings.from };
      const sent = await (await load()).messages.create({ to: message.to, body: message.text, ...from });
      return { id: sent.sid };
    },
  };
}

/**
 * A contact number as given at payment (spec 001 §5: an optional +country code, an optional area
 * in brackets, then digits, spaces, dots or hyphens) in E.164 for sending: a UK number's leading 0
 * becomes +44, and a number without a country code is read as a UK one (plans are set up in pounds).
 */
export function phoneForSms(contactNumber: string): string {
  const plus = contactNumber.trim().startsWith('+');
  let digits = contactNumber.replace(/\(0\)/g, '').replace(/\D/g, '');
  if (plus) return `+${digits}`;
  if (digits.startsWith('00')) return `+${digits.slice(2)}`;
  if (digits.startsWith('0')) digits = digits.slice(1);
  return `+44${digits}`;
}

/**
 * Writes the message to the outbox and, with a sender, sends it. A failed send is recorded on the
 * row and reported to the caller, who decides what follows.
 */
export async function sendSms(
  db: Database,
  sender: SmsSender | null,
  message: SmsMessage,
  now: Date,
): Promise<OutboxRow> {
  const [row] = await db
    .insert(outbox)
    .values({ recipient: message.to, channel: 'sms', subject: '', body: message.text, createdAt: now })
    .returning();
  if (!sender) return row!;
  try {
    await sender.send(message);
  } catch (err) {
    await db
      .update(outbox)
      .set({ failure: err instanceof Error ? err.message : String(err) })
      .where(eq(outbox.id, row!.id));
    throw err;
  }
  const [sent] = await db.update(outbox).set({ sentAt: now, body: '' }).where(eq(outbox.id, row!.id)).returning();
  return sent!;
}
