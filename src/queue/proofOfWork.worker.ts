/** The queue page's proof of work, off the main thread. */
import { solve, type Challenge } from './proofOfWork';
import { unchecked } from '../../contract/unchecked';

// A dedicated worker's global scope, which the DOM library types as a window.
const scope = unchecked<{
  onmessage: ((event: MessageEvent<Challenge>) => void) | null;
  postMessage(message: unknown): void;
}>(globalThis);

scope.onmessage = (event) => {
  solve(event.data).then(
    (payload) => scope.postMessage({ payload }),
    (err: unknown) => scope.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
};
