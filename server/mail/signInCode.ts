/** The one-time code e-mail, in the request's language: the code leads the subject, so the buyer can read it from the inbox list. */
import { t } from '../../i18n/runtime.ts';
import type { MailContent } from './transport.ts';

export function signInCodeMail(brandName: string, code: string): MailContent {
  return {
    subject: t('mail.signIn.subject', { code, brand: brandName }),
    text: [t('mail.signIn.code', { code }), '', t('mail.signIn.use'), t('mail.signIn.ignore')].join('\n'),
  };
}
