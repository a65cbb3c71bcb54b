/** The wallet e-mail, in the request's language: the sale's tickets, and where to find their QR codes. */
import type { WalletTicket } from '../domain/tickets.ts';
import { formatNiceDate } from '../domain/format.ts';
import type { MailContent } from './transport.ts';
import { t } from '../../i18n/runtime.ts';

export interface WalletMailData {
  saleReference: string | null;
  tickets: WalletTicket[];
  walletUrl: string;
}

/** Every ticket with its event, date, seat, holder and code, and a link to the wallet. */
export function walletMail(brandName: string, { saleReference, tickets, walletUrl }: WalletMailData): MailContent {
  const lines = [t('mail.wallet.intro', { brand: brandName }), ''];
  for (const ticket of tickets) {
    lines.push(
      `${ticket.eventTitle}`,
      `  ${formatNiceDate(ticket.startsAt)} · ${ticket.venue}`,
      `  ${ticket.ticketName} · ${ticket.seat ?? t('mail.wallet.generalAdmission')} · ${ticket.holderName}`,
      `  ${t('mail.wallet.ticketCode', { code: ticket.code })}`,
      '',
    );
  }
  lines.push(t('mail.wallet.link', { url: walletUrl }));
  return {
    subject: saleReference
      ? t('mail.wallet.subjectWithReference', { reference: saleReference })
      : t('mail.wallet.subject'),
    text: lines.join('\n'),
  };
}
