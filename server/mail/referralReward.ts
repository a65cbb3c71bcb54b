/** The referrer's reward e-mail: a friend booked through their share link. */
import type { MailContent } from './transport.ts';
import { t } from '../../i18n/runtime.ts';

export interface ReferralRewardMailData {
  firstName: string;
  eventTitle: string;
  organiserName: string;
  /** The organiser's own words for the reward. */
  rewardText: string;
  code: string;
  /** Whole or fractional percent off for a discount code; null for a reward given in person. */
  discountPercent: number | null;
  allEventsUrl: string;
}

export function referralRewardMail(d: ReferralRewardMailData): MailContent {
  const how =
    d.discountPercent === null
      ? [t('mail.referral.inPerson', { code: d.code, organiser: d.organiserName })]
      : [
          t('mail.referral.discount', { code: d.code, percent: d.discountPercent, organiser: d.organiserName }),
          t('mail.referral.typeIt'),
          '',
          t('mail.referral.events', { organiser: d.organiserName, url: d.allEventsUrl }),
        ];
  return {
    subject: t('mail.referral.subject', { event: d.eventTitle }),
    text: [
      t('mail.hello', { name: d.firstName }),
      '',
      t('mail.referral.thanks', { event: d.eventTitle }),
      '',
      d.rewardText,
      '',
      ...how,
    ].join('\n'),
  };
}
