/**
 * `?inspect` in development or demo mode shows the page's live machines in the Stately inspector:
 * every actor the page runs, its state and each event as it happens. Out of them, or without
 * `?inspect`, nothing is loaded and no actor is inspected.
 */
import type { InspectionEvent, Observer } from 'xstate';

let observer: Observer<InspectionEvent> | undefined;

/** Whether the server said this is demo mode (the page's `<meta name="demo-mode">`). */
export function inDemoMode(): boolean {
  return typeof document !== 'undefined' && document.querySelector('meta[name="demo-mode"]') !== null;
}

export function inspectorWanted(): boolean {
  return (import.meta.env.DEV || inDemoMode()) && new URLSearchParams(window.location.search).has('inspect');
}

/** Loads the inspector when wanted; afterwards `inspection()` gives actors their `inspect` option. */
export async function startInspector(): Promise<void> {
  if (!inspectorWanted() || observer) return;
  const { createBrowserInspector } = await import('@statelyai/inspect');
  observer = createBrowserInspector().inspect;
}

/** The options an actor is created with to be inspected: none when there is no inspector. */
export function inspection(): { inspect?: Observer<InspectionEvent> } {
  return observer ? { inspect: observer } : {};
}
