/**
 * 'It is your turn' by e-mail, for a buyer who has left the queue page: while waiting they may give
 * an address, and once admission reaches their number one e-mail goes there with the way back to
 * their place. The e-mail is sent once, by whichever process's job claims the place first (the claim
 * is one conditional statement), within a few seconds of the turn.
 */
import { sql } from 'drizzle-orm';
import { rows, type Database, type Executor } from '../../db/index.ts';
import { sendMail } from '../../mail/index.ts';
import { turnMail } from '../../mail/waitingList.ts';
import { queuePagePath } from '../../../contract/queuePage.ts';
import type { WaitingListMail } from './mail.ts';
import { writtenFor } from '../accountLanguage.ts';

/** Places e-mailed in one go; the rest wait for the job's next round, a few seconds on. */
const TURN_MAILS_AT_ONCE = 500;

/**
 * Keeps where to e-mail the place's buyer when it is their turn: true when the place is still
 * waiting (a place already let in, or already told, is not told again).
 */
export async function askForTurnMail(
  db: Pick<Executor, 'execute'>,
  dateId: number,
  placeId: number,
  email: string,
): Promise<boolean> {
  const [kept] = await rows<{ id: number }>(
    db,
    sql`UPDATE queue_places SET notify_email = ${email}
        WHERE id = ${placeId} AND event_date_id = ${dateId} AND admitted_at IS NULL AND notified_at IS NULL
          AND (number IS NULL OR number > (SELECT admitted_through FROM event_date_queues WHERE event_date_id = ${dateId}))
        RETURNING id`,
  );
  return kept !== undefined;
}

/** E-mails every buyer whose turn has come and who asked to be told: each once. Returns how many were sent. */
export async function mailTurns(db: Database, mail: WaitingListMail, now: Date): Promise<number> {
  const due = await rows<{
    email: string;
    event_date_id: number;
    title: string;
    starts_at: string | Date;
    admission_seconds: number;
    organiser_id: number;
  }>(
    db,
    sql`WITH due AS (
          SELECT p.id FROM queue_places p JOIN event_date_queues q ON q.event_date_id = p.event_date_id
          WHERE p.notify_email IS NOT NULL AND p.notified_at IS NULL AND p.number IS NOT NULL AND p.number <= q.admitted_through
          ORDER BY p.id LIMIT ${TURN_MAILS_AT_ONCE}
        ), told AS (
          UPDATE queue_places p SET notified_at = ${now} FROM due WHERE p.id = due.id AND p.notified_at IS NULL
          RETURNING p.notify_email, p.event_date_id
        )
        SELECT told.notify_email AS email, told.event_date_id, e.title, d.starts_at, q.admission_seconds, e.organiser_id
        FROM told JOIN event_dates d ON d.id = told.event_date_id JOIN events e ON e.id = d.event_id
          JOIN event_date_queues q ON q.event_date_id = told.event_date_id`,
  );
  const site = mail.publicUrl.replace(/\/$/, '');
  for (const d of due) {
    // Sent by a job: in the buyer's language (their account's, else the organiser's).
    const content = await writtenFor(db, { email: d.email, organiserId: Number(d.organiser_id) }, () =>
      turnMail(mail.brandName, {
        title: d.title,
        startsAt: new Date(d.starts_at),
        minutes: Math.round(Number(d.admission_seconds) / 60),
        link: `${site}${queuePagePath(Number(d.event_date_id))}`,
      }),
    );
    await sendMail(db, mail.mailer, mail.brandName, { to: d.email, ...content }, now);
  }
  return due.length;
}
