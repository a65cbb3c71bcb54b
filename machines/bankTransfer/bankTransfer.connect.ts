/** What the bank-transfer waiting screen shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import { BANK_RETRY_THRESHOLDS } from '../../contract';
import { formatMoney } from '../../contract/money';
import { BANK_TRANSFER_MESSAGES } from '../../contract/messages/bankTransfer';
import type { BankTransferEvent, bankTransferMachine } from './bankTransfer.machine';

export interface BankTransferView {
  /** The spinner with its changing message, while the bank is asked. */
  waiting: boolean;
  /** The wait message for the retries so far (spec 001 §4: 3, 6, 9). */
  waitMessage: string | null;
  /** Success: its heading, the reference and amount, with Continue. */
  succeeded: { title: string; reference: string | null; amount: string } | null;
  /** The failure view's text (cancelled, the bank's error, the status unavailable). */
  problem: string | null;
  /** Stopped after 60 retries: not confirmed yet, tickets follow if it is. */
  notYetConfirmed: string | null;
  canContinue: boolean;
  canSwitchMethod: boolean;
  canRetry: boolean;
}

/** Spec 001 §4: the message after 3, 6 and 9 retries; before that the plain wait. */
export function waitMessage(retries: number): string {
  if (retries >= BANK_RETRY_THRESHOLDS.slow) return BANK_TRANSFER_MESSAGES.afterNine;
  if (retries >= BANK_RETRY_THRESHOLDS.awaiting) return BANK_TRANSFER_MESSAGES.afterSix;
  if (retries >= BANK_RETRY_THRESHOLDS.waiting) return BANK_TRANSFER_MESSAGES.afterThree;
  return BANK_TRANSFER_MESSAGES.waiting;
}

export function viewBankTransfer(snapshot: SnapshotFrom<typeof bankTransferMachine>): BankTransferView {
  const c = snapshot.context;
  const waiting = snapshot.hasTag('waiting');
  const succeeded = snapshot.matches('succeeded') && c.status !== null;
  return {
    waiting,
    waitMessage: waiting ? waitMessage(c.retries) : null,
    succeeded:
      succeeded && c.status
        ? {
            title: BANK_TRANSFER_MESSAGES.succeeded,
            reference: c.status.reference,
            amount: formatMoney(c.status.total, c.status.currency),
          }
        : null,
    problem: c.problem,
    notYetConfirmed: snapshot.matches('gaveUp') ? BANK_TRANSFER_MESSAGES.notYetConfirmed : null,
    canContinue: snapshot.can({ type: 'CONTINUE_CLICKED' }),
    canSwitchMethod: snapshot.can({ type: 'SWITCH_METHOD_CLICKED' }),
    canRetry: snapshot.can({ type: 'RETRY_CLICKED' }),
  };
}

export function bankTransferSenders(send: (event: BankTransferEvent) => void) {
  return {
    continue: () => send({ type: 'CONTINUE_CLICKED' }),
    switchMethod: () => send({ type: 'SWITCH_METHOD_CLICKED' }),
    retry: () => send({ type: 'RETRY_CLICKED' }),
  };
}
