/**
 * The account (login) step, spec 000 §2 and §4 "Account modes": enter_email → one_time_code_sent
 * → confirm_name for a guest, confirm_account for a signed-in buyer. The calls are actors the app
 * provides; the machine ends with an AccountOutcome the root turns into the next step.
 */
import { assertEvent, assign, setup } from 'xstate';
import { codeDigits, isFullName, isValidEmail, ONE_TIME_CODE_LENGTH } from '../../contract/account';
import { ACCOUNT_MESSAGES } from '../../contract/messages/account';
import { failed, isCallFailure, type CallFailure } from '../../contract/outcome';
import type { AccountEvent, AccountOutcome, AccountUser } from './account.types';
import { providedByApp } from '../providedByApp';

export interface AccountContext {
  user: AccountUser | null;
  email: string;
  code: string;
  fullName: string;
  emailError: string | null;
  codeError: string | null;
  nameError: string | null;
  /** 'Unable to send the code…' with the server's text beside it. */
  sendError: { notice: string; detail: string } | null;
  logoutError: string | null;
  /** Bumped whenever the code field must take the focus again (after a refused code). */
  codeFocus: number;
  /** A resend went out: 'Code sent to inbox' is shown again. */
  resent: boolean;
  outcome: AccountOutcome | null;
}

/** A call's failure, as the app's actors reject (anything that is not an outcome failed, without words). */
const failureIn = (error: unknown): CallFailure => (isCallFailure(error) ? error : failed());
/** The words of a call's failure, or none. */
const wordsOf = (error: unknown): string => failureIn(error).message ?? '';

export const accountMachine = setup({
  types: {
    context: {} as AccountContext,
    events: {} as AccountEvent,
    output: {} as AccountOutcome,
    children: {} as {
      loadUser: 'loadUser';
      sendOneTimeCode: 'sendOneTimeCode';
      checkOneTimeCode: 'checkOneTimeCode';
      refreshUser: 'refreshUser';
      saveGuestToSale: 'saveGuestToSale';
      logoutOfSale: 'logoutOfSale';
    },
    tags: {} as 'busy',
  },
  actors: {
    /** The signed-in buyer from the app's user cache, or null. */
    loadUser: providedByApp.call<AccountUser | null, void>('loadUser'),
    sendOneTimeCode: providedByApp.call<void, { email: string }>('sendOneTimeCode'),
    checkOneTimeCode: providedByApp.call<{ has_account: boolean }, { email: string; code: string }>('checkOneTimeCode'),
    refreshUser: providedByApp.call<void, void>('refreshUser'),
    saveGuestToSale: providedByApp.call<void, { email: string; fullname: string }>('saveGuestToSale'),
    logoutOfSale: providedByApp.call<void, void>('logoutOfSale'),
  },
  actions: {
    keepUser: assign((_, params: { user: AccountUser | null }) => ({ user: params.user })),
    setEmail: assign(({ event }) => {
      assertEvent(event, 'EMAIL_CHANGED');
      return { email: event.value, emailError: null };
    }),
    showEmailError: assign({ emailError: ACCOUNT_MESSAGES.invalidEmail }),
    clearSendError: assign({ sendError: null }),
    showSendError: assign((_, params: { error: unknown }) => ({
      sendError: { notice: ACCOUNT_MESSAGES.sendFailed, detail: wordsOf(params.error) },
    })),
    setCode: assign(({ event }) => {
      assertEvent(event, 'CODE_CHANGED');
      return { code: codeDigits(event.value), codeError: null };
    }),
    clearCode: assign(({ context }) => ({ code: '', codeError: null, codeFocus: context.codeFocus + 1 })),
    forgetCode: assign({ code: '', codeError: null, resent: false, sendError: null }),
    showCodeError: assign(({ context }, params: { error: unknown }) => ({
      code: '',
      codeError: wordsOf(params.error) || ACCOUNT_MESSAGES.checkFailed,
      codeFocus: context.codeFocus + 1,
    })),
    markResent: assign({ resent: true, codeError: null }),
    setName: assign(({ event }) => {
      assertEvent(event, 'NAME_CHANGED');
      return { fullName: event.value, nameError: null };
    }),
    showNameRule: assign({ nameError: ACCOUNT_MESSAGES.fullName }),
    showSaveError: assign((_, params: { error: unknown }) => ({
      nameError: wordsOf(params.error) || ACCOUNT_MESSAGES.saveFailed,
    })),
    forgetUser: assign({ user: null, logoutError: null, email: '', code: '' }),
    showLogoutError: assign({ logoutError: ACCOUNT_MESSAGES.logoutFailed }),
    decide: assign((_, params: { outcome: AccountOutcome }) => ({ outcome: params.outcome })),
  },
  guards: {
    isSignedIn: ({ context }) => context.user !== null,
    emailIsValid: ({ context }) => isValidEmail(context.email.trim()),
    codeIsComplete: ({ context }) => context.code.length === ONE_TIME_CODE_LENGTH,
    nameIsFull: ({ context }) => isFullName(context.fullName),
    hasAccount: (_, params: { reply: { has_account: boolean } }) => params.reply.has_account,
    holdLost: (_, params: { error: unknown }) => failureIn(params.error).kind === 'holdLost',
  },
}).createMachine({
  id: 'account',
  description: 'Who is buying: a one-time code by e-mail, a full name for a new buyer, or the signed-in account.',
  context: {
    user: null,
    email: '',
    code: '',
    fullName: '',
    emailError: null,
    codeError: null,
    nameError: null,
    sendError: null,
    logoutError: null,
    codeFocus: 0,
    resent: false,
    outcome: null,
  },
  output: ({ context }) => context.outcome ?? { kind: 'confirmed' },
  initial: 'loadingUser',
  states: {
    loadingUser: {
      tags: 'busy',
      description: 'If the user is already signed in the mode is confirm_account, otherwise enter_email.',
      invoke: {
        src: 'loadUser',
        id: 'loadUser',
        onDone: { target: 'choosing', actions: { type: 'keepUser', params: ({ event }) => ({ user: event.output }) } },
        onError: { target: 'enter_email', description: 'Without a user, the e-mail address is asked for.' },
      },
    },
    choosing: {
      always: [{ guard: 'isSignedIn', target: 'confirm_account' }, { target: 'enter_email' }],
    },
    enter_email: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            EMAIL_CHANGED: { actions: 'setEmail' },
            EMAIL_SUBMITTED: [
              { guard: 'emailIsValid', target: 'sending', actions: 'clearSendError' },
              { actions: 'showEmailError' },
            ],
          },
        },
        sending: {
          tags: 'busy',
          invoke: {
            src: 'sendOneTimeCode',
            id: 'sendOneTimeCode',
            input: ({ context }) => ({ email: context.email.trim() }),
            onDone: { target: '#account.one_time_code_sent' },
            onError: {
              target: 'editing',
              actions: { type: 'showSendError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    one_time_code_sent: {
      initial: 'editing',
      on: {
        CHANGE_EMAIL_CLICKED: {
          target: 'enter_email',
          actions: 'forgetCode',
          description: "'Check or change email': back to the address, the code cleared.",
        },
      },
      states: {
        editing: {
          on: {
            CODE_CHANGED: { actions: 'setCode' },
            CODE_CLEARED: { actions: 'clearCode' },
            VERIFY_CLICKED: { guard: 'codeIsComplete', target: 'checking' },
            RESEND_CLICKED: { target: 'resending', actions: 'clearSendError' },
          },
        },
        checking: {
          tags: 'busy',
          invoke: {
            src: 'checkOneTimeCode',
            id: 'checkOneTimeCode',
            input: ({ context }) => ({ email: context.email.trim(), code: context.code }),
            onDone: [
              {
                guard: { type: 'hasAccount', params: ({ event }) => ({ reply: event.output }) },
                target: 'refreshingUser',
              },
              { target: '#account.confirm_name' },
            ],
            onError: [
              {
                guard: { type: 'holdLost', params: ({ event }) => ({ error: event.error }) },
                target: '#account.done',
                actions: {
                  type: 'decide',
                  params: ({ event }) => ({ outcome: { kind: 'holdLost', message: wordsOf(event.error) } }),
                },
              },
              {
                target: 'editing',
                actions: { type: 'showCodeError', params: ({ event }) => ({ error: event.error }) },
                description: 'The code is cleared and the field takes the focus again.',
              },
            ],
          },
        },
        refreshingUser: {
          tags: 'busy',
          description:
            'has_account: the cached user is refreshed before the next step. A failed refresh has no message.',
          invoke: {
            src: 'refreshUser',
            id: 'refreshUser',
            onDone: {
              target: '#account.done',
              actions: { type: 'decide', params: { outcome: { kind: 'signed_in' } } },
            },
            onError: {
              target: '#account.done',
              actions: { type: 'decide', params: { outcome: { kind: 'signed_in' } } },
            },
          },
        },
        resending: {
          tags: 'busy',
          invoke: {
            src: 'sendOneTimeCode',
            id: 'sendOneTimeCode',
            input: ({ context }) => ({ email: context.email.trim() }),
            onDone: { target: 'editing', actions: ['markResent', 'clearCode'] },
            onError: {
              target: 'editing',
              actions: { type: 'showSendError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
      },
    },
    confirm_name: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            NAME_CHANGED: { actions: 'setName' },
            NAME_SUBMITTED: [{ guard: 'nameIsFull', target: 'saving' }, { actions: 'showNameRule' }],
          },
        },
        saving: {
          tags: 'busy',
          invoke: {
            src: 'saveGuestToSale',
            id: 'saveGuestToSale',
            input: ({ context }) => ({ email: context.email.trim(), fullname: context.fullName.trim() }),
            onDone: {
              target: '#account.done',
              actions: { type: 'decide', params: { outcome: { kind: 'guest_saved' } } },
            },
            onError: [
              {
                guard: { type: 'holdLost', params: ({ event }) => ({ error: event.error }) },
                target: '#account.done',
                actions: {
                  type: 'decide',
                  params: ({ event }) => ({ outcome: { kind: 'holdLost', message: wordsOf(event.error) } }),
                },
              },
              {
                target: 'editing',
                actions: { type: 'showSaveError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
      },
    },
    confirm_account: {
      initial: 'showing',
      states: {
        showing: {
          on: {
            CONTINUE_CLICKED: {
              target: '#account.done',
              actions: { type: 'decide', params: { outcome: { kind: 'confirmed' } } },
            },
            SIGN_OUT_CLICKED: { target: 'loggingOut' },
          },
        },
        loggingOut: {
          tags: 'busy',
          description: "'Not you? Sign out': logout_of_sale, then the e-mail address is asked for.",
          invoke: {
            src: 'logoutOfSale',
            id: 'logoutOfSale',
            onDone: { target: '#account.enter_email', actions: 'forgetUser' },
            onError: { target: 'showing', actions: 'showLogoutError' },
          },
        },
      },
    },
    done: { type: 'final' },
  },
});
