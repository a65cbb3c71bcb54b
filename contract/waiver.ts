/**
 * The waiver link (spec 001 §2, "Waiver (Activity Terms and Conditions)"): the page that shows the
 * activity terms of a sale's events, at a path named by the sale's reference.
 */

/** The prefix of every waiver link; the server's route and the app's link share it. */
export const WAIVER_PATH_PREFIX = '/activity-terms-and-conditions/';

/** `/activity-terms-and-conditions/{sale_reference}/`. */
export function waiverPath(saleReference: string): string {
  return `${WAIVER_PATH_PREFIX}${encodeURIComponent(saleReference)}/`;
}
