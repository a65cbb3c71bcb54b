/**
 * What the login screen shows of the account machine, and the senders it may call. The screen
 * renders one of the four modes; it neither reads state names nor builds events itself.
 */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import { ONE_TIME_CODE_LENGTH } from '../../contract/account';
import type { accountMachine } from './account.machine';

export type AccountMode =
  'loading' | 'enter_email' | 'one_time_code_sent' | 'confirm_name' | 'confirm_account' | 'done';

export interface AccountView {
  mode: AccountMode;
  /** A call is with the server: buttons show their spinner and inputs are read-only. */
  busy: boolean;
  email: string;
  code: string;
  fullName: string;
  /** The signed-in buyer (confirm_account). */
  user: { email: string; full_name: string } | null;
  emailError: string | null;
  codeError: string | null;
  nameError: string | null;
  sendError: { notice: string; detail: string } | null;
  logoutError: string | null;
  /** Verify is enabled only with all six digits. */
  canVerify: boolean;
  /** Changes whenever the code field must take the focus. */
  codeFocus: number;
  resent: boolean;
}

function modeOf(snapshot: SnapshotFrom<typeof accountMachine>): AccountMode {
  for (const mode of ['enter_email', 'one_time_code_sent', 'confirm_name', 'confirm_account'] as const) {
    if (snapshot.matches(mode)) return mode;
  }
  return snapshot.matches('loadingUser') ? 'loading' : 'done';
}

export function viewAccount(snapshot: SnapshotFrom<typeof accountMachine>): AccountView {
  const c = snapshot.context;
  return {
    mode: modeOf(snapshot),
    busy: snapshot.hasTag('busy'),
    email: c.email,
    code: c.code,
    fullName: c.fullName,
    user: c.user,
    emailError: c.emailError,
    codeError: c.codeError,
    nameError: c.nameError,
    sendError: c.sendError,
    logoutError: c.logoutError,
    canVerify: c.code.length === ONE_TIME_CODE_LENGTH && !snapshot.hasTag('busy'),
    codeFocus: c.codeFocus,
    resent: c.resent,
  };
}

export function connectAccount(
  snapshot: SnapshotFrom<typeof accountMachine>,
  send: ActorRefFrom<typeof accountMachine>['send'],
) {
  return {
    ...viewAccount(snapshot),
    changeEmail: (value: string) => send({ type: 'EMAIL_CHANGED', value }),
    submitEmail: () => send({ type: 'EMAIL_SUBMITTED' }),
    changeCode: (value: string) => send({ type: 'CODE_CHANGED', value }),
    clearCode: () => send({ type: 'CODE_CLEARED' }),
    verify: () => send({ type: 'VERIFY_CLICKED' }),
    resend: () => send({ type: 'RESEND_CLICKED' }),
    changeAddress: () => send({ type: 'CHANGE_EMAIL_CLICKED' }),
    changeName: (value: string) => send({ type: 'NAME_CHANGED', value }),
    submitName: () => send({ type: 'NAME_SUBMITTED' }),
    continueAsUser: () => send({ type: 'CONTINUE_CLICKED' }),
    signOut: () => send({ type: 'SIGN_OUT_CLICKED' }),
  };
}
