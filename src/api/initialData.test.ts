import { describe, expect, it } from 'vitest';
import { QueryClient } from '@tanstack/react-query';
import { emptyCheckout } from '../../contract/emptyCheckout';
import { INITIAL_DATA_ID } from '../../contract/page';
import { seedInitialData, takeInitialCheckout } from './initialData';
import { queryKey } from './queries';

function pageWith(text: string | null) {
  let removed = false;
  const element = text === null ? null : { textContent: text, remove: () => (removed = true) };
  return {
    doc: { getElementById: (id: string) => (id === INITIAL_DATA_ID ? element : null) } as unknown as Document,
    removed: () => removed,
  };
}

describe('the data sent with the page', () => {
  it('fills the cache and answers the first read of the checkout once', async () => {
    const queryClient = new QueryClient();
    const checkout = { ...emptyCheckout(null), sale_reference: 'ABC123' };
    const page = pageWith(JSON.stringify({ checkout, user: { user: null } }));
    await seedInitialData(queryClient, page.doc);
    expect(page.removed()).toBe(true);
    expect(queryClient.getQueryData(queryKey('checkout'))).toEqual(checkout);
    expect(queryClient.getQueryData(['user'])).toBeNull();
    expect(takeInitialCheckout()).toEqual(checkout);
    expect(takeInitialCheckout()).toBeNull();
  });

  it('is ignored when missing or malformed, so the app asks the server', async () => {
    for (const text of [null, 'not json', JSON.stringify({ checkout: { state: 42 }, user: 'nobody' })]) {
      const queryClient = new QueryClient();
      await seedInitialData(queryClient, pageWith(text).doc);
      expect(queryClient.getQueryData(queryKey('checkout'))).toBeUndefined();
      expect(queryClient.getQueryData(['user'])).toBeUndefined();
      expect(takeInitialCheckout()).toBeNull();
    }
  });

  it('takes out data the contract refuses, once the contract has checked it', async () => {
    const queryClient = new QueryClient();
    const checkout = { ...emptyCheckout(null), seconds_remaining: 'soon' };
    const seeded = seedInitialData(queryClient, pageWith(JSON.stringify({ checkout, user: { user: 'nobody' } })).doc);
    await seeded;
    expect(queryClient.getQueryData(queryKey('checkout'))).toBeUndefined();
    expect(queryClient.getQueryData(['user'])).toBeUndefined();
    expect(takeInitialCheckout()).toBeNull();
  });
});
