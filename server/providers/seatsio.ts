/**
 * seats.io for plans whose provider is seats.io, when its keys are set (SEATSIO_PUBLIC_KEY and
 * SEATSIO_SECRET_KEY): the chart in the browser holds the buyer's seats under a seats.io hold
 * token; the server checks that hold when the seats are added to the basket, books them when the
 * sale is paid, and releases them when the buyer takes them out of the basket. All through the
 * official SDK (`seatsio`), imported on first use, so a server without the keys never loads it.
 *
 * The SDK's calls used here:
 *   GET  /events/{eventKey}/objects?label=…                       each object's status and hold token
 *   POST /events/groups/actions/change-object-status?expand=objects  book or release, under a hold token
 *   POST /hold-tokens/{holdToken}                                  { expiresInMinutes }: a hold lasts as long as the reservation
 */
import type { SeatsioKeys } from '../config.ts';
import { seatName } from '../../contract/seatRules.ts';
import { t } from '../../i18n/runtime.ts';
import { Refusal } from '../domain/refusal.ts';
import type { SeatingProvider } from '../domain/seating/provider.ts';

/** A seat's label on a seats.io chart: section, row and number joined by hyphens. */
export function seatsioLabel(seat: { section: string; row: string; number: string }): string {
  return `${seat.section}-${seat.row}-${seat.number}`;
}

export const SEATSIO_UNAVAILABLE = 'The seating plan could not be reached. Please try again.';
export const HELD_STATUS = 'reservedByToken';
export const BOOKED_STATUS = 'booked';

/** seats.io could not be reached, or answered what no refusal explains. */
export class SeatsioUnreachable extends Error {}

type Client = InstanceType<(typeof import('seatsio'))['SeatsioClient']>;

/** An error reply, as the SDK rejects with it: seats.io's JSON body (`errors`, `messages`). */
function isErrorReply(err: unknown): err is { errors?: { code?: string; message: string }[]; messages?: string[] } {
  return typeof err === 'object' && err !== null && ('errors' in err || 'messages' in err) && !(err instanceof Error);
}

export function seatsioSeats(
  keys: Pick<SeatsioKeys, 'secretKey' | 'apiBase'>,
  options: { maxRetries?: number } = {},
): SeatingProvider {
  let client: Promise<Client> | null = null;
  const sdk = () =>
    (client ??= import('seatsio').then(({ SeatsioClient, Region }) => {
      const made = new SeatsioClient(new Region(keys.apiBase), keys.secretKey);
      if (options.maxRetries !== undefined) made.setMaxRetries(options.maxRetries);
      return made;
    }));

  async function objectInfos(eventKey: string, labels: string[]) {
    try {
      return await (await sdk()).events.retrieveObjectInfos(eventKey, labels);
    } catch (err) {
      throw isErrorReply(err) ? new Refusal('try-again', SEATSIO_UNAVAILABLE) : new SeatsioUnreachable(String(err));
    }
  }

  /** Runs a status change; false when seats.io refuses it (a seat held or booked by someone else). */
  async function change(run: (c: Client) => Promise<unknown>): Promise<boolean> {
    try {
      await run(await sdk());
      return true;
    } catch (err) {
      if (isErrorReply(err)) return false;
      throw new SeatsioUnreachable(String(err));
    }
  }

  return {
    name: 'seatsio',
    async checkHeld(eventKey, seats, holdToken) {
      const labels = seats.map(seatsioLabel);
      let infos;
      try {
        infos = await objectInfos(eventKey, labels);
      } catch (err) {
        if (err instanceof SeatsioUnreachable) throw new Refusal('try-again', SEATSIO_UNAVAILABLE);
        throw err;
      }
      for (const seat of seats) {
        const info = infos[seatsioLabel(seat)];
        if (!info) throw new Refusal('not-found', t('page.seats.notOnPlan', { seat: seatName(seat) }));
        if (info.status !== HELD_STATUS || info.holdToken !== holdToken) {
          throw new Refusal('hold-lost', t('page.seats.holdEnded', { seat: seatName(seat) }));
        }
      }
    },
    async book(eventKey, seats, holdToken, orderId) {
      const labels = seats.map(seatsioLabel);
      if (await change((c) => c.events.book(eventKey, labels, holdToken, orderId))) return true;
      // Booked already for this order (a settlement run again), or the hold ended: free seats are still ours to book.
      const infos: Partial<Record<string, { status: string; orderId?: string }>> = await objectInfos(
        eventKey,
        labels,
      ).catch((err: unknown) => {
        if (err instanceof Refusal) return {};
        throw err;
      });
      if (labels.every((l) => infos[l]?.status === BOOKED_STATUS && infos[l]?.orderId === orderId)) return true;
      return change((c) => c.events.book(eventKey, labels, null, orderId));
    },
    async extendHold(holdToken, until, now) {
      const minutes = Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 60_000));
      await change((c) => c.holdTokens.expiresInMinutes(holdToken, minutes)).catch(() => false);
    },
    async release(eventKey, seats, holdToken) {
      // Best effort: a hold seats.io could not be told to give back ends by itself at its expiry.
      await change((c) => c.events.release(eventKey, seats.map(seatsioLabel), holdToken)).catch(() => false);
    },
  };
}
