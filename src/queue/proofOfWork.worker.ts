/** The queue page's proof of work, off the main thread. */
import { solve, type Challenge } from './proofOfWork';

const scope = globalThis as unknown as { onmessage: ((event: MessageEvent<Challenge>) => void) | null; postMessage(message: unknown): void };

scope.onmessage = (event) => {
  solve(event.data).then(
    (payload) => scope.postMessage({ payload }),
    (err: unknown) => scope.postMessage({ error: err instanceof Error ? err.message : String(err) }),
  );
};
