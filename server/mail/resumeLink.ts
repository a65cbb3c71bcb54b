/** The continue-your-order e-mail: the smart-checkout link to the held sale, for any device. */
import { formatEventDayAndTime } from '../domain/format.ts';
import type { MailContent } from './transport.ts';
import { t } from '../../i18n/runtime.ts';

export function resumeLinkMail(
  brandName: string,
  { saleReference, heldUntil, link }: { saleReference: string; heldUntil: Date; link: string },
): MailContent {
  return {
    subject: t('mail.resume.subject', { reference: saleReference }),
    text: [
      t('mail.resume.held', { time: formatEventDayAndTime(heldUntil).time }),
      '',
      t('mail.resume.open'),
      link,
      '',
      t('mail.resume.code', { brand: brandName }),
    ].join('\n'),
  };
}
