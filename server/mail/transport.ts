/**
 * All mail the product sends goes through the outbox: a row per message. When SMTP is configured
 * (SMTP_URL) the message is handed to nodemailer at once and its body is then cleared, so codes
 * are not kept; otherwise it stays in the outbox and the development mailbox (/dev/mailbox) shows it.
 */
import { desc, eq } from 'drizzle-orm';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import type { Database } from '../db/index.ts';
import { outbox } from '../db/schema.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

/** What a template writes: the message without its recipient, whom the sender chooses. */
export type MailContent = Omit<MailMessage, 'to'>;

/** Something that delivers a built message: SMTP in production, a JSON or stream transport in tests. */
export interface MailTransport {
  sendMail(message: SendMailOptions): Promise<unknown>;
}

export interface Mailer {
  /** Null when no SMTP server is configured: messages stay in the outbox. */
  transport: MailTransport | null;
  from: string;
}

export function smtpTransport(url: string): MailTransport {
  return nodemailer.createTransport(url);
}

/** The message nodemailer sends: plain text, from the configured sender, with the brand as its name. */
export function buildMessage(mailer: Pick<Mailer, 'from'>, brandName: string, message: MailMessage): SendMailOptions {
  return {
    from: { name: brandName, address: mailer.from },
    to: message.to,
    subject: message.subject,
    text: message.text,
    headers: { 'Auto-Submitted': 'auto-generated' },
  };
}

export type OutboxRow = typeof outbox.$inferSelect;

/**
 * Writes the message to the outbox and, with a transport, delivers it. A failed delivery is
 * recorded on the row and reported to the caller, who decides what the buyer is told.
 */
export async function sendMail(
  db: Database,
  mailer: Mailer,
  brandName: string,
  message: MailMessage,
  now: Date,
): Promise<OutboxRow> {
  const [row] = await db
    .insert(outbox)
    .values({ recipient: message.to, subject: message.subject, body: message.text, createdAt: now })
    .returning();
  if (!mailer.transport) return row!;
  try {
    await mailer.transport.sendMail(buildMessage(mailer, brandName, message));
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

/** The newest messages first, for the development mailbox. */
export async function latestMail(
  db: Database,
  opts: { recipient?: string; limit?: number } = {},
): Promise<OutboxRow[]> {
  const query = db.select().from(outbox);
  const filtered = opts.recipient ? query.where(eq(outbox.recipient, opts.recipient)) : query;
  return filtered.orderBy(desc(outbox.id)).limit(opts.limit ?? 50);
}
