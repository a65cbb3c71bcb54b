/** The mailing list's confirmation e-mail (double opt-in): only following its link subscribes the address. */
import type { MailContent } from './transport.ts';
import { t } from '../../i18n/runtime.ts';

export function mailingListConfirmationMail(
  brandName: string,
  { link, hours }: { link: string; hours: number },
): MailContent {
  return {
    subject: t('mail.mailingList.subject', { brand: brandName }),
    text: [
      t('mail.mailingList.someone', { brand: brandName }),
      '',
      t('mail.mailingList.open'),
      link,
      '',
      t('mail.mailingList.once', { hours }),
    ].join('\n'),
  };
}
