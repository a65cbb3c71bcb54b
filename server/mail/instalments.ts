/**
 * The payment plan's e-mails: the schedule once the plan is set up, a reminder before each
 * instalment, each payment taken, a charge that will be tried again, and a plan that has stopped
 * (to the buyer and to the organiser). Amounts are in pence. Each is written in the active language:
 * the domain sends them in their recipient's (server/domain/accountLanguage.ts).
 */
import { formatMoney } from '../../contract/money.ts';
import { ACCOUNT_PATH, planCardPath } from '../../contract/delivery.ts';
import { formatUkDate } from '../domain/format.ts';
import type { MailContent } from './transport.ts';
import { t } from '../../i18n/runtime.ts';

export interface ScheduledInstalment {
  seq: number;
  dueAt: Date;
  amount: number;
  status: 'scheduled' | 'paid' | 'failed';
}

/** One instalment of one sale's plan. */
export interface InstalmentMailData {
  saleReference: string | null;
  seq: number;
  amount: number;
}

const orderName = (saleReference: string | null) =>
  saleReference ? t('mail.plan.order', { reference: saleReference }) : t('mail.plan.yourOrder');

/** The account-settings page where this plan's card is changed, on the site's own address. */
export function accountSettingsUrl(publicUrl: string, saleReference: string | null): string {
  return `${publicUrl}${saleReference ? planCardPath(saleReference) : ACCOUNT_PATH}`;
}
const updateCard = (url: string) => t('mail.plan.updateCard', { url });
const money = (amount: number) => formatMoney(amount, 'GBP');

/** The schedule as the buyer's e-mails list it, one instalment a line. */
function scheduleLines(schedule: ScheduledInstalment[]): string {
  return schedule
    .map((r) =>
      t('mail.plan.line', { seq: r.seq, date: formatUkDate(r.dueAt), amount: money(r.amount), status: r.status }),
    )
    .join('\n');
}

export function paymentScheduleMail({
  saleReference,
  schedule,
  settingsUrl,
}: {
  saleReference: string | null;
  schedule: ScheduledInstalment[];
  settingsUrl: string;
}): MailContent {
  return {
    subject: saleReference
      ? t('mail.plan.scheduleSubjectFor', { reference: saleReference })
      : t('mail.plan.scheduleSubject'),
    text: [
      t('mail.plan.setUp'),
      '',
      scheduleLines(schedule),
      '',
      t('mail.plan.willRemind'),
      updateCard(settingsUrl),
      t('mail.plan.delivery'),
    ].join('\n'),
  };
}

export function instalmentReminderMail({
  saleReference,
  seq,
  amount,
  dueAt,
  settingsUrl,
}: InstalmentMailData & { dueAt: Date; settingsUrl: string }): MailContent {
  const order = orderName(saleReference);
  return {
    subject: t('mail.plan.reminderSubject', { seq, order, date: formatUkDate(dueAt) }),
    text: `${t('mail.plan.reminder', { amount: money(amount), order, date: formatUkDate(dueAt) })}\n${updateCard(settingsUrl)}`,
  };
}

/** The reminder as a text message: short enough for one SMS. */
export function instalmentReminderSms(
  brandName: string,
  { saleReference, seq, amount, dueAt }: InstalmentMailData & { dueAt: Date },
): string {
  return t('sms.plan.reminder', {
    brand: brandName,
    seq,
    amount: money(amount),
    order: orderName(saleReference),
    date: formatUkDate(dueAt),
  });
}

export function instalmentPaidMail({
  saleReference,
  seq,
  amount,
  schedule,
}: InstalmentMailData & { schedule: ScheduledInstalment[] }): MailContent {
  return {
    subject: t('mail.plan.paidSubject', { seq, order: orderName(saleReference) }),
    text: `${t('mail.plan.paid', { seq, amount: money(amount) })}\n\n${scheduleLines(schedule)}`,
  };
}

export function finalInstalmentPaidMail({
  saleReference,
  amount,
  walletUrl,
}: Omit<InstalmentMailData, 'seq'> & { walletUrl: string }): MailContent {
  const order = orderName(saleReference);
  return {
    subject: t('mail.plan.finalSubject', { order }),
    text: t('mail.plan.final', { amount: money(amount), order, url: walletUrl }),
  };
}

export function instalmentRetryMail({
  saleReference,
  seq,
  amount,
  reason,
  retryAt,
  settingsUrl,
}: InstalmentMailData & { reason: string; retryAt: Date; settingsUrl: string }): MailContent {
  return {
    subject: t('mail.plan.retrySubject', { seq, order: orderName(saleReference) }),
    text: [
      t('mail.plan.notCharged', { amount: money(amount), reason }),
      t('mail.plan.tryAgain', { date: formatUkDate(retryAt) }),
      updateCard(settingsUrl),
    ].join('\n'),
  };
}

/** To the buyer, when the last try at an instalment failed and the plan has stopped. */
export function planStoppedMail({
  saleReference,
  seq,
  amount,
  reason,
  attempts,
  organiserName,
  settingsUrl,
}: InstalmentMailData & { reason: string; attempts: number; organiserName: string; settingsUrl: string }): MailContent {
  return {
    subject: t('mail.plan.stoppedSubject', { order: orderName(saleReference) }),
    text: `${t('mail.plan.stopped', { attempts, seq, amount: money(amount), reason, organiser: organiserName })}\n${t('mail.plan.resume', { url: settingsUrl })}`,
  };
}

/** To the organiser, for the same stopped plan. */
export function planFailedMail({
  saleReference,
  seq,
  amount,
  reason,
  attempts,
  buyerEmail,
}: InstalmentMailData & { reason: string; attempts: number; buyerEmail: string }): MailContent {
  const order = orderName(saleReference);
  return {
    subject: t('mail.plan.failedSubject', { order }),
    text: t('mail.plan.failed', { seq, amount: money(amount), order, email: buyerEmail, attempts, reason }),
  };
}
