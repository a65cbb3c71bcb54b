/** The e-mail that offers transferred or gifted tickets to their recipient, with the link to accept them. */
import { formatNiceDate } from '../domain/format.ts';
import type { MailContent } from './transport.ts';
import { t as say } from '../../i18n/runtime.ts';

export interface TransferMailData {
  recipientName: string;
  senderName: string;
  qty: number;
  ticketName: string;
  eventTitle: string;
  startsAt: Date;
  isGift: boolean;
  /** The sender's own words; empty when they wrote none. */
  message: string;
  acceptUrl: string;
}

export function transferMail(brandName: string, t: TransferMailData): MailContent {
  const lines = [
    say('mail.hello', { name: t.recipientName }),
    '',
    say('mail.transfer.sent', {
      sender: t.senderName,
      count: t.qty,
      ticketName: t.ticketName,
      event: t.eventTitle,
      date: formatNiceDate(t.startsAt),
      brand: brandName,
    }),
  ];
  if (t.message) lines.push('', say('mail.transfer.theirMessage'), t.message);
  lines.push(
    '',
    say('mail.transfer.accept', { url: t.acceptUrl }),
    '',
    say('mail.transfer.until', { sender: t.senderName }),
  );
  return {
    subject: say(t.isGift ? 'mail.transfer.giftSubject' : 'mail.transfer.subject', {
      sender: t.senderName,
      event: t.eventTitle,
    }),
    text: lines.join('\n'),
  };
}
