/** The account step's notices and the e-mail and full-name rules' messages (spec 000 §5, §8), each defined once, in the catalogue. */
import { messages } from '../../i18n/lazy.ts';

export const ACCOUNT_MESSAGES = messages({
  sendFailed: 'account.sendFailed',
  logoutFailed: 'account.logoutFailed',
  invalidEmail: 'account.invalidEmail',
  fullName: 'account.fullName',
  /** Not in the spec: a code check or guest save that failed without a server message. */
  checkFailed: 'account.checkFailed',
  saveFailed: 'account.saveFailed',
});
