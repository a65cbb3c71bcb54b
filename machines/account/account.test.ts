import { describe, expect, it } from 'vitest';
import { codeDigits, isFullName, isValidEmail } from '../../contract/account';
import { failed as failedCall, holdLost, refused } from '../../contract/outcome';
import { walk, type Expectation, type OracleQuestion } from '../testing/walk';
import { viewAccount, type AccountView } from './account.connect';
import { accountMachine } from './account.machine';

/** The notices as the spec (000 §8) words them, written here independently of the machine's constants. */
const SEND_FAILED_NOTICE = 'Unable to send the code. Please try again later';
const LOGOUT_FAILED_NOTICE = 'Unable to log out. Please refresh the page';
const CHECK_FAILED_NOTICE = 'Unable to check the code. Please try again later';
const SAVE_FAILED_NOTICE = 'Unable to save your name. Please try again later';
/** The e-mail and full-name rules' messages (spec 000 §5). */
const INVALID_EMAIL_MESSAGE = 'Please type a valid email address';
const FULL_NAME_MESSAGE = 'Please type both your first and last name(s)';

const signedIn = { email: 'amelia@example.co.uk', full_name: 'Amelia Hughes' };
const refusals = {
  wrongCode: refused('That code is not right.', 'one_time_code'),
  reserving: holdLost('Your tickets are no longer held for you.'),
  server: refused('Too many codes have been sent to this email address.'),
  network: failedCall(),
} as const;

/**
 * Spec 000 §2 "Account (login) step", §4 "Account modes", §5 "Account" and §8: what each button
 * and each server answer leads to, as the buyer sees it.
 */
/** The controls each screen of the step shows (spec 000 §5): a control of another screen does nothing. */
const CONTROLS: Record<string, string[]> = {
  enter_email: ['EMAIL_CHANGED', 'EMAIL_SUBMITTED'],
  one_time_code_sent: ['CODE_CHANGED', 'CODE_CLEARED', 'VERIFY_CLICKED', 'RESEND_CLICKED', 'CHANGE_EMAIL_CLICKED'],
  confirm_name: ['NAME_CHANGED', 'NAME_SUBMITTED'],
  confirm_account: ['CONTINUE_CLICKED', 'SIGN_OUT_CLICKED'],
};

function accountOracle({ event, view, unchanged }: OracleQuestion<AccountView>): Expectation<AccountView> | undefined {
  if (!event.type.startsWith('xstate.') && !(CONTROLS[view.mode] ?? []).includes(event.type)) return unchanged();
  // While a call runs, the form takes nothing; 'Change e-mail' still leaves the code form.
  if (!event.type.startsWith('xstate.') && view.busy && event.type !== 'CHANGE_EMAIL_CLICKED') return unchanged();
  const screen = (fields: Partial<AccountView>): AccountView => {
    const next = { ...view, ...fields };
    return { ...next, canVerify: next.code.length === 6 && !next.busy };
  };
  const idle = (fields: Partial<AccountView>): Expectation<AccountView> => ({
    view: screen({ busy: false, ...fields }),
    running: [],
  });
  const nothing: Expectation<AccountView> = { view, running: [] };
  const error = event.error as { kind?: string; message?: string | null } | undefined;
  const finish = (output: unknown): Expectation<AccountView> => ({
    view: screen({ mode: 'done', busy: false }),
    running: [],
    output,
  });

  switch (event.type) {
    case 'xstate.done.actor.loadUser':
      // A signed-in buyer confirms the account; anyone else is asked for an e-mail address.
      return idle({
        mode: event.output ? 'confirm_account' : 'enter_email',
        user: (event.output as AccountView['user']) ?? null,
      });
    case 'xstate.error.actor.loadUser':
      return idle({ mode: 'enter_email' });
    case 'EMAIL_CHANGED':
      return idle({ email: event.value as string, emailError: null });
    case 'EMAIL_SUBMITTED':
      // The e-mail pattern is checked before anything is sent.
      if (!isValidEmail(view.email.trim())) return idle({ emailError: INVALID_EMAIL_MESSAGE });
      return {
        view: screen({ busy: true, sendError: null }),
        running: ['sendOneTimeCode'],
        started: { sendOneTimeCode: [{ email: view.email.trim() }] },
      };
    case 'xstate.done.actor.sendOneTimeCode':
      // A first send shows the code form; a resend says so and empties the code.
      if (view.mode === 'enter_email') return idle({ mode: 'one_time_code_sent' });
      return idle({ resent: true, code: '', codeError: null, codeFocus: view.codeFocus + 1 });
    case 'xstate.error.actor.sendOneTimeCode':
      return idle({ sendError: { notice: SEND_FAILED_NOTICE, detail: error?.message ?? '' } });
    case 'CODE_CHANGED':
      return idle({ code: codeDigits(event.value as string), codeError: null });
    case 'CODE_CLEARED':
      return idle({ code: '', codeError: null, codeFocus: view.codeFocus + 1 });
    case 'VERIFY_CLICKED':
      // Verify is disabled until six digits are typed.
      if (view.code.length !== 6) return nothing;
      return {
        view: screen({ busy: true }),
        running: ['checkOneTimeCode'],
        started: { checkOneTimeCode: [{ email: view.email.trim(), code: view.code }] },
      };
    case 'RESEND_CLICKED':
      return {
        view: screen({ busy: true, sendError: null }),
        running: ['sendOneTimeCode'],
        started: { sendOneTimeCode: [{ email: view.email.trim() }] },
      };
    case 'CHANGE_EMAIL_CLICKED':
      return idle({ mode: 'enter_email', code: '', codeError: null, resent: false, sendError: null });
    case 'xstate.done.actor.checkOneTimeCode':
      // has_account: refresh the user, then the next step; otherwise ask for the name.
      if ((event.output as { has_account: boolean }).has_account) {
        return { view: screen({ busy: true }), running: ['refreshUser'], started: { refreshUser: [undefined] } };
      }
      return idle({ mode: 'confirm_name' });
    case 'xstate.error.actor.checkOneTimeCode':
      if (error?.kind === 'holdLost') return finish({ kind: 'holdLost', message: error.message });
      // The message inline, the code cleared and the field focused again.
      return idle({ code: '', codeError: error?.message || CHECK_FAILED_NOTICE, codeFocus: view.codeFocus + 1 });
    case 'xstate.done.actor.refreshUser':
    case 'xstate.error.actor.refreshUser':
      return finish({ kind: 'signed_in' });
    case 'NAME_CHANGED':
      return idle({ fullName: event.value as string, nameError: null });
    case 'NAME_SUBMITTED':
      if (!isFullName(view.fullName)) return idle({ nameError: FULL_NAME_MESSAGE });
      return {
        view: screen({ busy: true }),
        running: ['saveGuestToSale'],
        started: { saveGuestToSale: [{ email: view.email.trim(), fullname: view.fullName.trim() }] },
      };
    case 'xstate.done.actor.saveGuestToSale':
      return finish({ kind: 'guest_saved' });
    case 'xstate.error.actor.saveGuestToSale':
      if (error?.kind === 'holdLost') return finish({ kind: 'holdLost', message: error.message });
      return idle({ nameError: error?.message || SAVE_FAILED_NOTICE });
    case 'CONTINUE_CLICKED':
      return finish({ kind: 'confirmed' });
    case 'SIGN_OUT_CLICKED':
      return { view: screen({ busy: true }), running: ['logoutOfSale'], started: { logoutOfSale: [undefined] } };
    case 'xstate.done.actor.logoutOfSale':
      return idle({ mode: 'enter_email', user: null, email: '', code: '', logoutError: null });
    case 'xstate.error.actor.logoutOfSale':
      return idle({ logoutError: LOGOUT_FAILED_NOTICE });
  }
  return undefined;
}

const done = (id: string, outputs: unknown[]) => outputs.map((output) => ({ type: `xstate.done.actor.${id}`, output }));
const failed = (id: string, errors: unknown[]) => errors.map((error) => ({ type: `xstate.error.actor.${id}`, error }));

describe('account machine', () => {
  it('is walked at 100 %: every mode, button and server answer of the account step', async () => {
    const result = await walk<AccountView>({
      name: 'account',
      machine: accountMachine,
      askIgnored: true,
      fakes: (kit) => ({
        actors: {
          loadUser: kit.controlled(),
          sendOneTimeCode: kit.controlled(),
          checkOneTimeCode: kit.controlled(),
          refreshUser: kit.controlled(),
          saveGuestToSale: kit.controlled(),
          logoutOfSale: kit.controlled(),
        },
      }),
      events: {
        'xstate.done.actor.loadUser': done('loadUser', [signedIn, null]),
        'xstate.error.actor.loadUser': failed('loadUser', [new Error('offline')]),
        EMAIL_CHANGED: [
          { type: 'EMAIL_CHANGED', value: ' buyer@example.com ' },
          { type: 'EMAIL_CHANGED', value: 'buyer@example' },
        ],
        CODE_CHANGED: [
          { type: 'CODE_CHANGED', value: '12-34 56' },
          { type: 'CODE_CHANGED', value: '12a3' },
        ],
        NAME_CHANGED: [
          { type: 'NAME_CHANGED', value: 'Ada  Lovelace ' },
          { type: 'NAME_CHANGED', value: 'Ada' },
        ],
        'xstate.done.actor.sendOneTimeCode': done('sendOneTimeCode', [undefined]),
        'xstate.error.actor.sendOneTimeCode': failed('sendOneTimeCode', [refusals.server]),
        'xstate.done.actor.checkOneTimeCode': done('checkOneTimeCode', [{ has_account: true }, { has_account: false }]),
        'xstate.error.actor.checkOneTimeCode': failed('checkOneTimeCode', [
          refusals.wrongCode,
          refusals.reserving,
          refusals.network,
        ]),
        'xstate.done.actor.refreshUser': done('refreshUser', [undefined]),
        'xstate.error.actor.refreshUser': failed('refreshUser', [new Error('offline')]),
        'xstate.done.actor.saveGuestToSale': done('saveGuestToSale', [undefined]),
        'xstate.error.actor.saveGuestToSale': failed('saveGuestToSale', [
          refusals.reserving,
          refusals.server,
          refusals.network,
        ]),
        'xstate.done.actor.logoutOfSale': done('logoutOfSale', [undefined]),
        'xstate.error.actor.logoutOfSale': failed('logoutOfSale', [new Error('offline')]),
      },
      // A state is its value and what the guards read: the counters and messages do not change the way on.
      serializeState: (snapshot) =>
        JSON.stringify({
          value: snapshot.value,
          email: snapshot.context.email,
          code: snapshot.context.code,
          name: snapshot.context.fullName,
          user: snapshot.context.user !== null,
        }),
      view: (snapshot) => viewAccount(snapshot as never),
      initial: () => ({
        view: {
          mode: 'loading',
          busy: true,
          user: null,
          email: '',
          code: '',
          canVerify: false,
          emailError: null,
          sendError: null,
          logoutError: null,
        },
        running: ['loadUser'],
        started: { loadUser: [undefined] },
      }),
      oracle: accountOracle,
    });
    expect(result.states.missing).toEqual([]);
    expect(result.transitions.missing).toEqual([]);
  }, 120_000);
});
