/**
 * What the queue page's own script needs and nothing more (no schema library): the waiting room's
 * paths and the page's words, which the server paints first and the script says from then on.
 * contract/waitingRoom.ts has the answers' shapes and passes these on.
 */

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

/* The words. Durations are spoken in whole minutes (or seconds in the last minute). */
/** What introduces the organiser's message on the queue page. */
export const ORGANISER_MESSAGE_LABEL = 'From the organiser:';
export const CHECKING_MESSAGE = 'Finding your place in the queue…';
export const JOINING_MESSAGE = 'Checking this browser before giving it a place in the queue…';
export const JOIN_FAILED_MESSAGE = 'This browser could not be given a place in the queue. Please try again.';
export const OFFLINE_MESSAGE = 'The queue cannot be reached just now. Your place is kept; trying again…';
export const ADMITTED_MESSAGE = 'It is your turn. Taking you to the tickets…';
export const SOLD_OUT_MESSAGE = 'Sold out: every ticket is sold or held by another buyer. If held tickets are released, the queue opens again.';
export const WAITING_LIST_FAILED_MESSAGE = 'You could not be added to the waiting list. Please try again.';

/** Once a place's time to buy has ended: the queue page says it, and a reservation is refused with it. */
export function admissionEndedMessage(minutes: number | null): string {
  const lasted = minutes === null ? '' : `: your turn in the queue lasted ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
  return `Your time to buy has ended${lasted}. You can join the queue again, at the back of the line.`;
}

/** 'about 3 minutes', 'about 1 minute', 'less than a minute'. */
export function aboutDuration(seconds: number): string {
  if (seconds < 60) return 'less than a minute';
  const minutes = Math.round(seconds / 60);
  return `about ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

export function beforeSaleMessage(opensInSeconds: number): string {
  const when = opensInSeconds <= 0 ? 'The on-sale is opening now.' : `The on-sale opens in ${aboutDuration(opensInSeconds).replace('about ', '')}.`;
  return `${when} Everyone here before it opens gets a place in a random order; later arrivals join the end of the line.`;
}

export function waitingMessage(position: number, waitSeconds: number): string {
  return `You are number ${position} in the queue. Estimated wait: ${aboutDuration(waitSeconds)}.`;
}
