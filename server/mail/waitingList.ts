/** The waiting list's e-mails: the confirmation of joining (with the place in line and a leave link), and an offer. */
import type { MailContent } from './transport.ts';
import { formatDeadline } from '../domain/format.ts';
import { t as say } from '../../i18n/runtime.ts';

export function waitingListJoinedMail(
  brandName: string,
  j: { title: string; typeName: string; qty: number; position: number; offerHours: number; leaveLink: string },
): MailContent {
  return {
    subject: say('mail.waitingList.joinedSubject', { title: j.title }),
    text: [
      say('mail.waitingList.number', { position: j.position, qty: j.qty, typeName: j.typeName, title: j.title }),
      '',
      say('mail.waitingList.ifReleased', { hours: j.offerHours }),
      '',
      say('mail.waitingList.leave'),
      j.leaveLink,
      '',
      brandName,
    ].join('\n'),
  };
}

export function waitingListOfferMail(
  brandName: string,
  o: { title: string; typeName: string; qty: number; startsAt: Date; link: string; until: Date },
): MailContent {
  return {
    subject: say('mail.waitingList.offerSubject', { title: o.title }),
    text: [
      say('mail.waitingList.released', { title: o.title, date: formatDeadline(o.startsAt) }),
      '',
      say('mail.waitingList.holding', { qty: o.qty, typeName: o.typeName, until: formatDeadline(o.until) }),
      o.link,
      '',
      say('mail.waitingList.once', { brand: brandName }),
    ].join('\n'),
  };
}

/** 'It is your turn', for a buyer in the queue who asked to be told by e-mail. */
export function turnMail(
  brandName: string,
  t: { title: string; startsAt: Date; minutes: number; link: string },
): MailContent {
  return {
    subject: say('mail.turn.subject', { title: t.title }),
    text: [
      say('mail.turn.lead', { title: t.title, date: formatDeadline(t.startsAt) }),
      '',
      say('mail.turn.goBack', { minutes: t.minutes }),
      t.link,
      '',
      say('mail.turn.after', { brand: brandName }),
    ].join('\n'),
  };
}
