/** Provider webhook events already handled, so that a replayed event has no second effect. */
import type { Executor } from '../../db/index.ts';
import { paymentWebhookEvents } from '../../db/schema.ts';

/**
 * Records a provider's webhook event as handled; false when it was recorded before, and so is a
 * replay to acknowledge and ignore. `eventId` carries the provider's prefix (`truelayer:<id>`).
 */
export async function firstDeliveryOf(db: Pick<Executor, 'insert'>, eventId: string, now: Date): Promise<boolean> {
  const fresh = await db
    .insert(paymentWebhookEvents)
    .values({ eventId, receivedAt: now })
    .onConflictDoNothing()
    .returning({ eventId: paymentWebhookEvents.eventId });
  return fresh.length > 0;
}
