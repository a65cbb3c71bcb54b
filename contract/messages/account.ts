/** The account step's notices (spec 000 §8), each defined once. */
export const SEND_FAILED_NOTICE = 'Unable to send the code. Please try again later';
export const LOGOUT_FAILED_NOTICE = 'Unable to log out. Please refresh the page';
/** The e-mail and full-name rules' messages (spec 000 §5, §8). */
export const INVALID_EMAIL_MESSAGE = 'Please type a valid email address';
export const FULL_NAME_MESSAGE = 'Please type both your first and last name(s)';
/** Not in the spec: a code check or guest save that failed without a server message. */
export const CHECK_FAILED_NOTICE = 'Unable to check the code. Please try again later';
export const SAVE_FAILED_NOTICE = 'Unable to save your name. Please try again later';
