/** The e-mail that offers transferred or gifted tickets to their recipient, with the link to accept them. */
import { formatNiceDate } from '../domain/format.ts';
import type { MailContent } from './transport.ts';

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

const ticketsText = (qty: number, ticketName: string) => `${qty} ${ticketName} ${qty === 1 ? 'ticket' : 'tickets'}`;

export function transferMail(brandName: string, t: TransferMailData): MailContent {
  const lines = [
    `Hello ${t.recipientName},`,
    '',
    `${t.senderName} has sent you ${ticketsText(t.qty, t.ticketName)} for ${t.eventTitle}, ${formatNiceDate(t.startsAt)}, through ${brandName}.`,
  ];
  if (t.message) lines.push('', 'Their message:', t.message);
  lines.push(
    '',
    `Accept them here and they move to your ticket wallet: ${t.acceptUrl}`,
    '',
    `Until you accept, the tickets stay with ${t.senderName}.`,
  );
  return {
    subject: t.isGift ? `${t.senderName} sent you a gift: tickets for ${t.eventTitle}` : `${t.senderName} sent you tickets for ${t.eventTitle}`,
    text: lines.join('\n'),
  };
}
