/**
 * The payment plan's e-mails: the schedule once the plan is set up, a reminder before each
 * instalment, each payment taken, a charge that will be tried again, and a plan that has stopped
 * (to the buyer and to the organiser). Amounts are in pence.
 */
import { formatMoney } from '../../contract/money.ts';
import { ACCOUNT_PATH, planCardPath } from '../../contract/delivery.ts';
import { formatUkDate } from '../domain/format.ts';
import type { MailContent } from './transport.ts';

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

const orderName = (saleReference: string | null) => (saleReference ? `order ${saleReference}` : 'your order');

/** The account-settings page where this plan's card is changed, on the site's own address. */
export function accountSettingsUrl(publicUrl: string, saleReference: string | null): string {
  return `${publicUrl}${saleReference ? planCardPath(saleReference) : ACCOUNT_PATH}`;
}
const updateCard = (url: string) => `You can update your payment method in your account settings: ${url}`;
const money = (amount: number) => formatMoney(amount, 'GBP');

/** The schedule as the buyer's e-mails list it, one instalment a line. */
function scheduleLines(schedule: ScheduledInstalment[]): string {
  return schedule
    .map((r) => `${r.seq}. ${formatUkDate(r.dueAt)}: ${money(r.amount)}${r.status === 'paid' ? ' (paid)' : r.status === 'failed' ? ' (failed)' : ''}`)
    .join('\n');
}

export function paymentScheduleMail({ saleReference, schedule, settingsUrl }: { saleReference: string | null; schedule: ScheduledInstalment[]; settingsUrl: string }): MailContent {
  return {
    subject: `Your payment schedule${saleReference ? ` for order ${saleReference}` : ''}`,
    text: [
      'Your payment plan is set up and your first payment has been taken.',
      '',
      scheduleLines(schedule),
      '',
      'We will remind you by SMS and e-mail before each payment.',
      updateCard(settingsUrl),
      'Your tickets are delivered to your ticket wallet as they are paid for, and all of them after the final payment.',
    ].join('\n'),
  };
}

export function instalmentReminderMail({ saleReference, seq, amount, dueAt, settingsUrl }: InstalmentMailData & { dueAt: Date; settingsUrl: string }): MailContent {
  const order = orderName(saleReference);
  return {
    subject: `Reminder: instalment ${seq} for ${order} is due on ${formatUkDate(dueAt)}`,
    text: `Your instalment of ${money(amount)} for ${order} will be taken from your saved card on ${formatUkDate(dueAt)}.\n${updateCard(settingsUrl)}`,
  };
}

/** The reminder as a text message: short enough for one SMS. */
export function instalmentReminderSms(brandName: string, { saleReference, seq, amount, dueAt }: InstalmentMailData & { dueAt: Date }): string {
  return `${brandName}: instalment ${seq} of ${money(amount)} for ${orderName(saleReference)} will be taken from your saved card on ${formatUkDate(dueAt)}.`;
}

export function instalmentPaidMail({ saleReference, seq, amount, schedule }: InstalmentMailData & { schedule: ScheduledInstalment[] }): MailContent {
  return {
    subject: `Instalment ${seq} paid for ${orderName(saleReference)}`,
    text: `We have taken instalment ${seq} of ${money(amount)}.\n\n${scheduleLines(schedule)}`,
  };
}

export function finalInstalmentPaidMail({ saleReference, amount, walletUrl }: Omit<InstalmentMailData, 'seq'> & { walletUrl: string }): MailContent {
  const order = orderName(saleReference);
  return {
    subject: `Final instalment paid for ${order}: your tickets are in your wallet`,
    text: `We have taken your final instalment of ${money(amount)}. Every ticket of ${order} is now in your ticket wallet: ${walletUrl}`,
  };
}

export function instalmentRetryMail({ saleReference, seq, amount, reason, retryAt, settingsUrl }: InstalmentMailData & { reason: string; retryAt: Date; settingsUrl: string }): MailContent {
  return {
    subject: `We could not take instalment ${seq} for ${orderName(saleReference)}`,
    text: `Your card was not charged ${money(amount)}: ${reason}\nWe will try again on ${formatUkDate(retryAt)}, or as soon as you give a new card.\n${updateCard(settingsUrl)}`,
  };
}

/** To the buyer, when the last try at an instalment failed and the plan has stopped. */
export function planStoppedMail({ saleReference, seq, amount, reason, attempts, organiserName, settingsUrl }: InstalmentMailData & { reason: string; attempts: number; organiserName: string; settingsUrl: string }): MailContent {
  return {
    subject: `Your payment plan for ${orderName(saleReference)} has stopped`,
    text: `We tried ${attempts} times to take instalment ${seq} of ${money(amount)} and your card was refused each time (${reason}). ${organiserName} has been told and will be in touch about your tickets.\nUntil the event starts you can resume the plan with a new card in your account settings: ${settingsUrl}`,
  };
}

/** To the organiser, for the same stopped plan. */
export function planFailedMail({ saleReference, seq, amount, reason, attempts, buyerEmail }: InstalmentMailData & { reason: string; attempts: number; buyerEmail: string }): MailContent {
  const order = orderName(saleReference);
  return {
    subject: `Payment plan failed: ${order}`,
    text: `Instalment ${seq} of ${money(amount)} for ${order} (buyer ${buyerEmail}) failed ${attempts} times: ${reason}. The buyer has been told. Tickets not yet paid for have not been delivered.`,
  };
}
