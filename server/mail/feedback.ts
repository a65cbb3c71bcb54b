/** A buyer's feedback on a paid order, as the organiser (or the site's feedback address) receives it. */
import type { MailContent } from './transport.ts';
import { t } from '../../i18n/runtime.ts';

export interface FeedbackMailData {
  saleReference: string | null;
  /** Null when the buyer did not sign in. */
  buyer: { firstName: string; lastName: string; email: string } | null;
  events: { title: string; organiser: string }[];
  message: string;
}

/** One subject per order, so the messages an order has sent can be counted by it. */
export function feedbackSubject(saleReference: string | null): string {
  return saleReference === null
    ? t('mail.feedback.subjectNoReference')
    : t('mail.feedback.subject', { reference: saleReference });
}

export function feedbackMail(
  brandName: string,
  { saleReference, buyer, events, message }: FeedbackMailData,
): MailContent {
  const from = buyer ? `${buyer.firstName} ${buyer.lastName} <${buyer.email}>` : t('mail.feedback.anonymous');
  const text = [
    t('mail.feedback.sent', { from, reference: saleReference ?? '', brand: brandName }),
    t('mail.feedback.events', { events: events.map((e) => `${e.title} (${e.organiser})`).join('; ') }),
    '',
    message.trim(),
    '',
    buyer ? t('mail.feedback.reply', { email: buyer.email }) : '',
  ].join('\n');
  return { subject: feedbackSubject(saleReference), text };
}
