/** The schema lives in server/db/schema/, a file per part of the product; this is its entry. */
export * from './schema/index.ts';
