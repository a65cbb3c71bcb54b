/**
 * Where a browser error is reported and how much of it is kept: no schema here, so the app's entry
 * (src/telemetry.ts) carries none of the contract's validation.
 */
export const ERROR_REPORT_PATH = '/ajax/telemetry/report_error/';
/** Reports one address may send a minute; more are refused (429) and not logged. */
export const ERROR_REPORTS_PER_MINUTE = 10;
export const MAX_ERROR_MESSAGE = 1000;
export const MAX_ERROR_STACK = 8000;
