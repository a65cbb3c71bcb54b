/** The waiver step's and page's words (spec 001 §2 "Waiver", §8). */
import { messages } from '../../i18n/lazy.ts';

export const WAIVER_MESSAGES = messages({
  /** The success notification once the waiver link is on the clipboard (spec 001 §8). */
  linkCopied: 'waiver.linkCopied',
  copyLink: 'waiver.copyLink',
  share: 'waiver.share',
  /** Where the browser has no share sheet, the link goes by e-mail. */
  shareByEmail: 'waiver.shareByEmail',
  /** The page for a reference that names no sale with activity terms. */
  notFound: 'waiver.notFound',
});
