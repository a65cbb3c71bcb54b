import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BASKET_COUNT_POLL_MS, basketCount, onBasketCount, publishBasketCount } from './basketCount';

/** A window as far as the announcement needs one: events, timers and the document's loading state. */
function fakeWindow(readyState: DocumentReadyState) {
  const target = new EventTarget() as EventTarget & {
    document: { readyState: DocumentReadyState };
    setInterval: typeof setInterval;
    clearInterval: typeof clearInterval;
  };
  target.document = { readyState };
  target.setInterval = ((fn: () => void, ms: number) => setInterval(fn, ms)) as typeof setInterval;
  target.clearInterval = ((id: number) => clearInterval(id)) as typeof clearInterval;
  return target as unknown as Window & { document: { readyState: DocumentReadyState } };
}

describe('the basket count', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('counts tickets and gift vouchers', () => {
    expect(basketCount({ tickets: [{ qty: 2 }, { qty: 1 }], gift_vouchers: [{ qty: 3 }] } as never)).toBe(6);
    expect(basketCount(undefined)).toBe(0);
  });

  it('is announced every 10 ms until the site has loaded, then no more', () => {
    const win = fakeWindow('loading');
    const heard: number[] = [];
    onBasketCount((n) => heard.push(n), win);
    publishBasketCount(4, win);
    expect(heard).toEqual([4]);
    vi.advanceTimersByTime(BASKET_COUNT_POLL_MS * 3);
    expect(heard).toEqual([4, 4, 4, 4]);
    expect(BASKET_COUNT_POLL_MS).toBe(10);

    // A listener that starts late still hears the count while the site loads.
    const late: number[] = [];
    onBasketCount((n) => late.push(n), win);
    vi.advanceTimersByTime(BASKET_COUNT_POLL_MS);
    expect(late).toEqual([4]);

    win.document.readyState = 'complete';
    vi.advanceTimersByTime(BASKET_COUNT_POLL_MS);
    const afterLoad = heard.length;
    vi.advanceTimersByTime(BASKET_COUNT_POLL_MS * 10);
    expect(heard).toHaveLength(afterLoad);

    // Once loaded, a change is announced once.
    publishBasketCount(5, win);
    vi.advanceTimersByTime(BASKET_COUNT_POLL_MS * 10);
    expect(heard.slice(afterLoad)).toEqual([5]);
  });
});
