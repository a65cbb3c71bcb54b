/**
 * The waiting room in front of a queued event date's on-sale, and the waiting list after its
 * sell-out: the calls of the queue page (server/routes/waitingRoom/) and their answers.
 */
import { z } from 'zod/mini';

export * from './queuePage.ts';

const count = z.number().check(z.int(), z.minimum(0));

export const queueStatus = z.object({
  /**
   * before-sale: the on-sale has not opened; no-place: this browser has not joined (or its place is
   * not valid); ended: the place's time to buy has ended (the queue page says so and offers a new place).
   */
  state: z.enum(['before-sale', 'waiting', 'admitted', 'sold-out', 'no-place', 'ended']),
  /** Place in line counting this buyer (1 = next), while waiting. */
  position: z.nullable(count),
  /** Buyers in front, while waiting. */
  ahead: z.nullable(count),
  /** The estimated wait at the rate admission really moves at, while waiting. */
  wait_seconds: z.nullable(count),
  /** Share of the line in front of this buyer when it was placed that has been admitted since, 0 to 1. */
  progress: z.number().check(z.minimum(0), z.maximum(1)),
  /** Until the on-sale opens, before it. */
  opens_in_seconds: z.nullable(count),
  /** When to ask again, set by the server. */
  poll_ms: z.number().check(z.int(), z.minimum(250)),
  /** Where an admitted buyer goes: the event page. */
  event_url: z.string(),
  event_title: z.string(),
  /** The date's ticket types, for the waiting list once sold out. */
  ticket_types: z.array(z.object({ id: z.number().check(z.int()), name: z.string() })),
  /** The organiser's message to everyone waiting for the date, or null; it may change while they wait. */
  organiser_message: z.optional(z.nullable(z.string())),
});
export type QueueStatus = z.infer<typeof queueStatus>;

export const waitingListAnswer = z.object({ joined: z.boolean(), message: z.string() });
export type WaitingListAnswer = z.infer<typeof waitingListAnswer>;

export const errorAnswer = z.object({ error: z.string() });
