/**
 * The card form follows the processor get_stripe_token names: the sandbox's card page for its
 * key, Stripe's Payment Element (its own chunk, opened as a session) only for a Stripe key.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, waitFor, type AnyActorLogic } from 'xstate';
import { QueryClient } from '@tanstack/react-query';
import { SANDBOX_PUBLIC_KEY_PREFIX } from '../../../contract/payment';
import { PAYMENT_MESSAGES } from '../../../contract/messages/payment';
import { cardUi } from './cardUi';
import { appPaymentMachine } from './paymentActors';
import { stripeSessions, takeCardWithStripe } from './stripeSession';

describe('cardUi', () => {
  it('names the sandbox card page for the sandbox key, the Payment Element for a Stripe key, nothing else', () => {
    expect(cardUi(`${SANDBOX_PUBLIC_KEY_PREFIX}holdfast`)).toBe('sandbox');
    expect(cardUi('pk_test_51Habc')).toBe('stripe');
    expect(cardUi('pk_live_51Habc')).toBe('stripe');
    expect(cardUi('')).toBeNull();
    expect(cardUi('pk_other')).toBeNull();
    expect(cardUi('sk_test_51Habc')).toBeNull();
  });
});

function confirmCardWith(navigate: (url: string) => void) {
  const machine = appPaymentMachine(new QueryClient(), navigate);
  return machine.implementations.actors.confirmCard as AnyActorLogic;
}

describe('confirming the card in the app', () => {
  it('the sandbox key goes to the card page and opens no Stripe session', async () => {
    const navigate = vi.fn();
    const actor = createActor(confirmCardWith(navigate), {
      input: { public_key: `${SANDBOX_PUBLIC_KEY_PREFIX}holdfast`, client_secret: 'pi_sandbox_1_secret_x' },
    });
    actor.start();
    // The card page's module loads with the first confirmation.
    await vi.waitFor(() => expect(navigate).toHaveBeenCalledWith('/sandbox/card/?secret=pi_sandbox_1_secret_x'), {
      timeout: 10_000,
    });
    expect(stripeSessions.get()).toBeNull();
    actor.stop();
  });

  it('a Stripe key opens a session for the Payment Element, and Stripe’s message ends it as a failure', async () => {
    const navigate = vi.fn();
    const seen: unknown[] = [];
    const unsubscribe = stripeSessions.subscribe(() => seen.push(stripeSessions.get()));
    const actor = createActor(confirmCardWith(navigate), {
      input: { public_key: 'pk_test_holdfast', client_secret: 'pi_1_secret_2' },
    });
    actor.start();
    await vi.waitFor(() => expect(stripeSessions.get()).not.toBeNull());
    const session = stripeSessions.get()!;
    expect(session).toMatchObject({ publicKey: 'pk_test_holdfast', clientSecret: 'pi_1_secret_2' });
    session.finish({ status: 'failed', message: 'Your card was declined.' });
    const done = await waitFor(actor, (s) => s.status === 'done');
    expect(done.output).toEqual({ status: 'failed', message: 'Your card was declined.' });
    expect(stripeSessions.get()).toBeNull();
    expect(navigate).not.toHaveBeenCalled();
    expect(seen).toHaveLength(2);
    unsubscribe();
  });

  it('a key of no known processor is refused with the step’s own message', async () => {
    const actor = createActor(confirmCardWith(vi.fn()), { input: { public_key: 'nonsense', client_secret: 'x' } });
    const errors: unknown[] = [];
    actor.subscribe({ error: (err) => errors.push(err) });
    actor.start();
    await vi.waitFor(() => expect(errors).toHaveLength(1));
    expect((errors[0] as Error).message).toBe(PAYMENT_MESSAGES.stripeRedirect);
    expect(stripeSessions.get()).toBeNull();
  });
});

describe('the Stripe session', () => {
  it('closes when the step is left, and a late answer changes nothing', async () => {
    const abort = new AbortController();
    const result = takeCardWithStripe({ public_key: 'pk_test_x', client_secret: 'pi_2_secret_3' }, abort.signal);
    const session = stripeSessions.get()!;
    abort.abort();
    await expect(result).rejects.toThrow();
    expect(stripeSessions.get()).toBeNull();
    session.finish({ status: 'succeeded' });
    expect(stripeSessions.get()).toBeNull();
  });

  it('a Stripe.js that cannot load ends the confirmation as an error', async () => {
    const result = takeCardWithStripe({ public_key: 'pk_test_x', client_secret: 'pi_3_secret_4' });
    stripeSessions.get()!.fail(new Error(PAYMENT_MESSAGES.stripeRedirect));
    await expect(result).rejects.toThrow(PAYMENT_MESSAGES.stripeRedirect);
    expect(stripeSessions.get()).toBeNull();
  });
});
