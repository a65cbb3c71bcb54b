/** The waiting list's e-mails: the confirmation of joining (with the place in line and a leave link), and an offer. */
import type { MailContent } from './transport.ts';
import { formatDeadline } from '../domain/format.ts';

export function waitingListJoinedMail(
  brandName: string,
  j: { title: string; typeName: string; qty: number; position: number; offerHours: number; leaveLink: string },
): MailContent {
  return {
    subject: `You are on the waiting list for ${j.title}`,
    text: [
      `You are number ${j.position} on the waiting list for ${j.qty} × ${j.typeName} at ${j.title}.`,
      '',
      `If tickets are released, we will e-mail you a link that holds them for you for up to ${j.offerHours} hours (never past the event's start).`,
      '',
      'To leave the waiting list, open this link:',
      j.leaveLink,
      '',
      brandName,
    ].join('\n'),
  };
}

export function waitingListOfferMail(brandName: string, o: { title: string; typeName: string; qty: number; startsAt: Date; link: string; until: Date }): MailContent {
  return {
    subject: `Tickets for ${o.title} are held for you`,
    text: [
      `Tickets have been released for ${o.title} (${formatDeadline(o.startsAt)}), and you are next on the waiting list.`,
      '',
      `We are holding ${o.qty} × ${o.typeName} for you until ${formatDeadline(o.until)}. Open this link to buy them:`,
      o.link,
      '',
      `If you do not want them, do nothing: they go to the next buyer on the list. This offer is made once. ${brandName}`,
    ].join('\n'),
  };
}

/** 'It is your turn', for a buyer in the queue who asked to be told by e-mail. */
export function turnMail(brandName: string, t: { title: string; startsAt: Date; minutes: number; link: string }): MailContent {
  return {
    subject: `It is your turn to buy tickets for ${t.title}`,
    text: [
      `It is your turn in the queue for ${t.title} (${formatDeadline(t.startsAt)}).`,
      '',
      `Go back to your place within ${t.minutes} minutes, in the browser where you joined the queue, and you will be taken to the tickets:`,
      t.link,
      '',
      `After that your turn ends and the place goes to the next buyer. ${brandName}`,
    ].join('\n'),
  };
}
