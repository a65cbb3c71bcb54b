/** The one-time code e-mail: the code leads the subject, so the buyer can read it from the inbox list. */
import type { MailContent } from './transport.ts';

export function signInCodeMail(brandName: string, code: string): MailContent {
  return {
    subject: `${code} is your ${brandName} code`,
    text: [
      `Your one-time sign in or registration code is ${code}`,
      '',
      'Type it on the checkout page to carry on. It works once, for 15 minutes.',
      'If you did not ask for it, you can ignore this email.',
    ].join('\n'),
  };
}
