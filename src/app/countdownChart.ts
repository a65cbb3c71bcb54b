/**
 * The hold's clock (machines/countdown) with the app's ticker and call for more time. The root
 * starts it with the first hold, so it loads with the later steps' charts (stepCharts.ts), not with
 * the basket.
 */
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import { CallFailed, callApi } from '../api/client';
import { countdownMachine, type ExtendHoldReply } from '../../machines/countdown/countdown.machine';
import { MORE_TIME_MESSAGES } from '../../contract/messages/moreTime';

/** Sends TICK with the milliseconds that really passed, so a throttled tab catches up. */
const ticker = fromCallback<EventObject, { intervalMs: number }>(({ sendBack, input }) => {
  let last = performance.now();
  const id = setInterval(() => {
    const now = performance.now();
    sendBack({ type: 'TICK', elapsedMs: now - last });
    last = now;
  }, input.intervalMs);
  return () => clearInterval(id);
});

/** POST extend_hold; a refusal rejects with the server's own words for the buyer. */
const extendHold = fromPromise<ExtendHoldReply, void>(async () => {
  try {
    return await callApi('extendHold');
  } catch (err) {
    throw new Error(err instanceof CallFailed && err.serverMessage ? err.serverMessage : MORE_TIME_MESSAGES.failed, {
      cause: err,
    });
  }
});

export const countdownChart = () => countdownMachine.provide({ actors: { ticker, extendHold } });
