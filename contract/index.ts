/**
 * The wire contract: one schema per call, shared by the browser client (which parses every
 * response with it), the server (which validates every request with it) and the machines (which
 * type their events with it). Split by concern; this file joins the calls into one registry.
 */
import type { z } from 'zod/mini';
import { accountCalls } from './account.ts';
import { afterSaleCalls } from './afterSale.ts';
import { addressCalls } from './address.ts';
import { bankTransferCalls } from './bankTransfer.ts';
import { basketCalls } from './basket.ts';
import { checkoutCalls } from './checkout.ts';
import { donationCalls } from './donation.ts';
import { deliveryCalls } from './delivery.ts';
import { marketingCalls } from './marketing.ts';
import { paymentCalls } from './payment.ts';
import { instalmentCalls } from './instalment.ts';
import { squareCalls } from './square.ts';
import { questionCalls } from './questions.ts';
import { reservationCalls } from './reservation.ts';
import { userCalls } from './user.ts';
import { transferAcceptCalls, transferCalls } from './transfers.ts';
import { seatCalls } from './seats.ts';

export * from './primitives.ts';
export * from './checkout.ts';
export * from './user.ts';
export * from './basket.ts';
export * from './reservation.ts';
export * from './donation.ts';
export * from './account.ts';
export * from './marketing.ts';
export * from './transfers.ts';
export * from './delivery.ts';
export * from './payment.ts';
export * from './instalment.ts';
export * from './square.ts';
export * from './address.ts';
export * from './questions.ts';
export * from './bankTransfer.ts';
export * from './seats.ts';
export * from './afterSale.ts';
export * from './waiver.ts';

/** The checkout app's calls: what its entry script bundles (the seat page's chunk brings its own). */
export const appCalls = {
  ...userCalls,
  ...checkoutCalls,
  ...basketCalls,
  ...reservationCalls,
  ...accountCalls,
  ...marketingCalls,
  ...donationCalls,
  ...deliveryCalls,
  ...transferCalls,
  ...paymentCalls,
  ...instalmentCalls,
  ...squareCalls,
  ...addressCalls,
  ...questionCalls,
  ...bankTransferCalls,
  ...afterSaleCalls,
} as const;

/** Every call the server answers. */
export const calls = {
  ...appCalls,
  ...seatCalls,
  ...transferAcceptCalls,
} as const;

export type Calls = typeof calls;
export type CallName = keyof Calls;
export type RequestOf<N extends CallName> = z.input<Calls[N]['request']>;
export type ParsedRequestOf<N extends CallName> = z.output<Calls[N]['request']>;
export type ResponseOf<N extends CallName> = z.output<Calls[N]['response']>;
