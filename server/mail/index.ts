/**
 * The product's e-mails. The domain decides when a message goes and to whom, and hands the data to
 * a template here, which decides what it says; the transport writes it to the outbox and sends it.
 */
export { feedbackMail, feedbackSubject, type FeedbackMailData } from './feedback.ts';
export {
  finalInstalmentPaidMail,
  instalmentPaidMail,
  instalmentReminderMail,
  instalmentRetryMail,
  paymentScheduleMail,
  planFailedMail,
  planStoppedMail,
  type InstalmentMailData,
  type ScheduledInstalment,
} from './instalments.ts';
export { mailingListConfirmationMail } from './mailingList.ts';
export { signInCodeMail } from './signInCode.ts';
export { transferMail, type TransferMailData } from './transfer.ts';
export {
  buildMessage,
  latestMail,
  sendMail,
  smtpTransport,
  type MailContent,
  type MailMessage,
  type Mailer,
  type MailTransport,
  type OutboxRow,
} from './transport.ts';
export { walletMail, type WalletMailData } from './wallet.ts';
