/**
 * How a failed call reaches a chart: the app's actors reject with an Error whose message is the
 * buyer's text (a refused call's error carries the server's own as `serverMessage`).
 */

/** A call refused because the hold is gone: the failure body's error becomes the basket's reserving error. */
export class HoldLost extends Error {
  // Stryker disable next-line StringLiteral: the name is for logs; every guard tells a lost hold by instanceof.
  override name = 'HoldLost';
}

/**
 * The words a failed call gives the buyer: the server's text when the call was refused with one,
 * else the error's own message, else the fallback (a failed call without the server's words never
 * shows the call's name).
 */
export function messageOf(error: unknown, fallback: string): string {
  if (typeof error === 'object' && error !== null && 'serverMessage' in error) {
    const { serverMessage } = error as { serverMessage: unknown };
    return typeof serverMessage === 'string' && serverMessage ? serverMessage : fallback;
  }
  return error instanceof Error && error.message ? error.message : fallback;
}
