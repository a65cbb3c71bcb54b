/** The continue-your-order e-mail: the smart-checkout link to the held sale, for any device. */
import { formatEventDayAndTime } from '../domain/format.ts';
import type { MailContent } from './transport.ts';

export function resumeLinkMail(brandName: string, { saleReference, heldUntil, link }: { saleReference: string; heldUntil: Date; link: string }): MailContent {
  return {
    subject: `Continue your order ${saleReference}`,
    text: [
      `Your tickets are held for you until ${formatEventDayAndTime(heldUntil).time} (UK time).`,
      '',
      'To continue your order on this or any other device, open:',
      link,
      '',
      `On another device you will be asked for a one-time code, which we e-mail to this address, so only you can continue it. The link works for 24 hours; the ${brandName} checkout shows where your order is.`,
    ].join('\n'),
  };
}
