/** What the waiting list's offers and e-mails are sent with: the process's mailer and the configuration's names. */
import type { Mailer } from '../../mail/index.ts';

export interface WaitingListMail {
  mailer: Mailer;
  brandName: string;
  publicUrl: string;
  /** The site's secret: the leave link is signed under a key derived from it. */
  secret: string;
  /** The site's default per-order maximum (MAX_PER_ORDER), when neither the type nor its event sets one. */
  maxPerOrder?: number;
}
