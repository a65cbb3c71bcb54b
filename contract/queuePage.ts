/**
 * What the queue page's own script needs and nothing more (no schema library): the waiting room's
 * paths and the page's words, which the server paints first and the script says from then on.
 * contract/waitingRoom.ts has the answers' shapes and passes these on.
 */
import { messages } from '../i18n/lazy.ts';
import { t } from '../i18n/runtime.ts';

/** The queue page of an event date; the event page sends a buyer without an admission here. */
export const queuePagePath = (dateId: number) => `/queue/${dateId}/`;
/** The buyer's place: GET, answered from a signed cookie without touching the database. */
export const queueStatusPath = (dateId: number) => `/ajax/queue/${dateId}/status/`;
/**
 * What the server pushes to a queue page with a place: GET, server-sent events. `status` carries a
 * queue status ('sold out'), `nudge` asks the page to ask for its status now, within the milliseconds
 * it gives. 204 when the server pushes nothing to this browser (no place, or too many listening).
 */
export const queueEventsPath = (dateId: number) => `/ajax/queue/${dateId}/events/`;
/** Joining: POST, form-encoded `altcha` (the solved proof of work of getCaptchaChallenge). */
export const queueJoinPath = (dateId: number) => `/ajax/queue/${dateId}/join/`;
/** Joining the waiting list of a sold-out ticket type: POST, form-encoded `ticket_type_id`, `email`, `quantity`. */
export const WAITING_LIST_PATH = '/ajax/queue/waiting-list/';
/** The local proof of work's challenge (the same as the reservation's captcha). */
export const QUEUE_CHALLENGE_PATH = '/ajax/checkout/captcha/challenge/';

/*
 * The words, in the buyer's language: each is looked up when it is read (i18n/lazy.ts). The server
 * writes the page in the request's language and carries the `queue.*` messages in the page for its
 * script (i18n/catalogues.ts `queueCatalogue`). Durations are spoken in whole minutes (or "less than
 * a minute" in the last one).
 */
export const QUEUE_MESSAGES = messages({
  checking: 'queue.checking',
  joining: 'queue.joining',
  joinFailed: 'queue.joinFailed',
  offline: 'queue.offline',
  admitted: 'queue.admitted',
  soldOut: 'queue.soldOut',
  waitingListFailed: 'queue.waitingListFailed',
});

/** Once a place's time to buy has ended: the queue page says it, and a reservation is refused with it (the server's words). */
export function admissionEndedMessage(minutes: number | null): string {
  return minutes === null ? t('page.queue.ended') : t('page.queue.endedAfter', { minutes });
}

export function beforeSaleMessage(opensInSeconds: number): string {
  if (opensInSeconds <= 0) return t('queue.opening');
  return opensInSeconds < 60 ? t('queue.opensSoon') : t('queue.opensIn', { minutes: Math.round(opensInSeconds / 60) });
}

export function waitingMessage(position: number, waitSeconds: number): string {
  return waitSeconds < 60
    ? t('queue.waitingSoon', { position })
    : t('queue.waiting', { position, minutes: Math.round(waitSeconds / 60) });
}
