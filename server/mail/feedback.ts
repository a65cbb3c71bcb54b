/** A buyer's feedback on a paid order, as the organiser (or the site's feedback address) receives it. */
import type { MailContent } from './transport.ts';

export interface FeedbackMailData {
  saleReference: string | null;
  /** Null when the buyer did not sign in. */
  buyer: { firstName: string; lastName: string; email: string } | null;
  events: { title: string; organiser: string }[];
  message: string;
}

/** One subject per order, so the messages an order has sent can be counted by it. */
export function feedbackSubject(saleReference: string | null): string {
  return `Feedback on order ${saleReference ?? 'without a reference'}`;
}

export function feedbackMail(brandName: string, { saleReference, buyer, events, message }: FeedbackMailData): MailContent {
  const from = buyer ? `${buyer.firstName} ${buyer.lastName} <${buyer.email}>` : 'A buyer who did not sign in';
  const text = [
    `${from} sent feedback on order ${saleReference ?? ''} through ${brandName}.`,
    `Events: ${events.map((e) => `${e.title} (${e.organiser})`).join('; ')}`,
    '',
    message.trim(),
    '',
    buyer ? `Reply to ${buyer.email} to answer them.` : '',
  ].join('\n');
  return { subject: feedbackSubject(saleReference), text };
}
