/** The referrer's reward e-mail: a friend booked through their share link. */
import type { MailContent } from './transport.ts';

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
      ? [`Your reward reference is ${d.code}. Show this e-mail to ${d.organiserName} to claim it.`]
      : [
          `Your code ${d.code} takes ${d.discountPercent}% off your next ${d.organiserName} ticket.`,
          'Type it under DISCOUNT OR VOUCHER CODE? in your basket. It works once.',
          '',
          `${d.organiserName}'s events: ${d.allEventsUrl}`,
        ];
  return {
    subject: `A friend booked ${d.eventTitle}: here is your reward`,
    text: [`Hello ${d.firstName},`, '', `A friend booked ${d.eventTitle} with your share link. Thank you!`, '', d.rewardText, '', ...how].join('\n'),
  };
}
