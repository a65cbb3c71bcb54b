/**
 * The Holdfast database, one file per part of the product, and how its tables join
 * (relations.ts). Money is integer minor units; percentages are basis points (1 % = 100) so no
 * price is ever a float.
 *
 * The PL/pgSQL functions in server/db/functions/ (checkout_snapshot, reserve_basket, …) name these
 * tables and their key and ordering columns: renaming one of those needs a migration replacing them.
 */
export * from './catalogue.ts';
export * from './accounts.ts';
export * from './sales.ts';
export * from './stock.ts';
export * from './seating.ts';
export * from './questions.ts';
export * from './donations.ts';
export * from './payments.ts';
export * from './instalments.ts';
export * from './delivery.ts';
export * from './ops.ts';
export * from './relations.ts';
export * from './waitingRoom.ts';
export * from './organiser.ts';
