/**
 * Calls a test answers by hand: each invocation of `logic` waits, with its input, in `calls` until
 * the test replies; `settle` lets what the replies set off run its course.
 */
import { fromPromise } from 'xstate';

export function callQueue<I, O>() {
  const calls: Array<{ input: I; reply: (output: O) => void }> = [];
  const logic = fromPromise<O, I>(({ input }) => new Promise<O>((resolve) => calls.push({ input, reply: resolve })));
  return { calls, logic };
}

export const settle = async () => {
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
};
