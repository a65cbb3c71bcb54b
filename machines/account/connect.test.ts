import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { connectAccount } from './account.connect';
import { accountMachine } from './account.machine';
import type { AccountUser } from './account.types';

/** The login screen's controls, each as the event of the spec's action (spec 000 §2 Account step). */
describe('account senders', () => {
  it('turn each control of the four modes into its event', () => {
    const actor = createActor(
      accountMachine.provide({
        actors: { loadUser: fromPromise<AccountUser | null, void>(() => new Promise<AccountUser | null>(() => {})) },
      }),
    ).start();
    const sent: unknown[] = [];
    const view = connectAccount(actor.getSnapshot(), (event) => sent.push(event));
    view.changeEmail('ada@example.com');
    view.submitEmail();
    view.changeCode('123456');
    view.clearCode();
    view.verify();
    view.resend();
    view.changeAddress();
    view.changeName('Ada Lovelace');
    view.submitName();
    view.continueAsUser();
    view.signOut();
    expect(sent).toEqual([
      { type: 'EMAIL_CHANGED', value: 'ada@example.com' },
      { type: 'EMAIL_SUBMITTED' },
      { type: 'CODE_CHANGED', value: '123456' },
      { type: 'CODE_CLEARED' },
      { type: 'VERIFY_CLICKED' },
      { type: 'RESEND_CLICKED' },
      { type: 'CHANGE_EMAIL_CLICKED' },
      { type: 'NAME_CHANGED', value: 'Ada Lovelace' },
      { type: 'NAME_SUBMITTED' },
      { type: 'CONTINUE_CLICKED' },
      { type: 'SIGN_OUT_CLICKED' },
    ]);
    actor.stop();
  });

  it('shows the loading mode, busy, while the signed-in buyer is read', () => {
    const actor = createActor(
      accountMachine.provide({
        actors: { loadUser: fromPromise<AccountUser | null, void>(() => new Promise<AccountUser | null>(() => {})) },
      }),
    ).start();
    const view = connectAccount(actor.getSnapshot(), () => {});
    expect(view).toMatchObject({ mode: 'loading', busy: true, canVerify: false, user: null });
    actor.stop();
  });
});
