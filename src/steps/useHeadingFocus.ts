import { useEffect, useRef } from 'react';

/**
 * How many step screens (after 'Determining checkout progress') this page has shown; the first
 * comes with the page load, which keeps the browser's own focus.
 */
let screensShown = 0;

/**
 * The heading of a step screen, focused when the screen replaces another one, so keyboard and
 * screen reader users start on the new step instead of the page body. The heading needs tabIndex={-1}.
 */
export function useHeadingFocus<T extends HTMLElement = HTMLHeadingElement>() {
  const ref = useRef<T>(null);
  useEffect(() => {
    screensShown += 1;
    if (screensShown > 1) ref.current?.focus({ preventScroll: false });
  }, []);
  return ref;
}
