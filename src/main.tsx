/**
 * The checkout's entry. It runs after the browser has painted the page's own picture
 * (scripts/entryAfterPaint.ts) and starts the app in separate tasks, so a phone's main thread is
 * never held for long: React first, then the charts and screens, then the chart's start, then
 * React's first render (a transition, rendered in slices). The page's loader preloads every one of
 * those chunks along with the entry.
 */
import './design';

/** Gives the main thread back to the browser (input, paint) before the next step. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

void (async () => {
  await import('react-dom/client');
  await nextTask();
  const { startCheckout } = await import('./boot');
  await nextTask();
  await startCheckout(nextTask);
})();
