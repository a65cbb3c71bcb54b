/**
 * The moment the app's first screen is on the page (its first commit), and the work that waits for
 * it: what the first screen does not need (the next step's chart, the analytics, the contract's
 * check of the page's own data) starts in the first idle moment after it, so none of it competes
 * with the first screen for the network or the main thread.
 */
let markShown: () => void = () => undefined;
const shown = new Promise<void>((resolve) => {
  markShown = resolve;
});

/** Called by the app once its first screen has committed; the first call is the one that counts. */
export function firstScreenShown(): void {
  markShown();
}

/** Runs `work` in the first idle moment after the first screen is on the page. */
export function afterFirstScreen(work: () => void): void {
  void shown.then(() => whenIdle(work));
}

function whenIdle(run: () => void): void {
  if (typeof window !== 'undefined' && 'requestIdleCallback' in window)
    window.requestIdleCallback(run, { timeout: 2000 });
  else setTimeout(run, 0);
}
