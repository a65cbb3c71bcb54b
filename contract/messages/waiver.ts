/** The waiver step's and page's words (spec 001 §2 "Waiver", §8). */
export const WAIVER_MESSAGES = {
  /** The success notification once the waiver link is on the clipboard (spec 001 §8). */
  linkCopied: 'Link copied',
  copyLink: 'Copy link',
  share: 'Share',
  /** Where the browser has no share sheet, the link goes by e-mail. */
  shareByEmail: 'Share by e-mail',
  /** The page for a reference that names no sale with activity terms. */
  notFound: 'There are no activity terms and conditions for this reference.',
} as const;
