/** The wallet e-mail: the sale's tickets, and where to find their QR codes. */
import type { WalletTicket } from '../domain/tickets.ts';
import { formatNiceDate } from '../domain/format.ts';
import type { MailContent } from './transport.ts';

export interface WalletMailData {
  saleReference: string | null;
  tickets: WalletTicket[];
  walletUrl: string;
}

/** Every ticket with its event, date, seat, holder and code, and a link to the wallet. */
export function walletMail(brandName: string, { saleReference, tickets, walletUrl }: WalletMailData): MailContent {
  const lines = [`Here are your tickets from ${brandName}.`, ''];
  for (const t of tickets) {
    lines.push(
      `${t.eventTitle}`,
      `  ${formatNiceDate(t.startsAt)} · ${t.venue}`,
      `  ${t.ticketName} · ${t.seat ?? 'General admission'} · ${t.holderName}`,
      `  Ticket code: ${t.code}`,
      '',
    );
  }
  lines.push(`Your ticket wallet, with a QR code for each ticket to show at the door: ${walletUrl}`);
  return { subject: saleReference ? `Your tickets (${saleReference})` : 'Your tickets', text: lines.join('\n') };
}
