/** The mailing list's confirmation e-mail (double opt-in): only following its link subscribes the address. */
import type { MailContent } from './transport.ts';

export function mailingListConfirmationMail(brandName: string, { link, hours }: { link: string; hours: number }): MailContent {
  return {
    subject: `Confirm your ${brandName} mailing list sign-up`,
    text: [
      `Someone, we hope you, asked for this address to get ${brandName}'s event news and discounts.`,
      '',
      'To confirm, open this link and press Confirm:',
      link,
      '',
      `The link works once, for ${hours} hours. If you did not ask, ignore this email and nothing will be sent to you.`,
    ].join('\n'),
  };
}
