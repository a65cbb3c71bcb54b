/** What the Square card form shows, and what it may send. */
import type { SnapshotFrom } from 'xstate';
import { SQUARE_SANDBOX_APP_ID } from '../../contract';
import type { SquareEvent, squareMachine } from './square.machine';

export interface SquareView {
  /** The credentials are being fetched. */
  loading: boolean;
  /** The card form is on screen. */
  showCard: boolean;
  /** Which form takes the card: Square's SDK, or the sandbox's fields. */
  form: 'square' | 'sandbox' | null;
  credentials: { app_id: string; location_id: string } | null;
  /** The card is being tokenised or charged. */
  paying: boolean;
  cardError: string | null;
}

export function viewSquare(snapshot: SnapshotFrom<typeof squareMachine>): SquareView {
  const c = snapshot.context.credentials;
  return {
    loading: snapshot.hasTag('loading'),
    showCard: snapshot.hasTag('takingCard'),
    form: c ? (c.app_id === SQUARE_SANDBOX_APP_ID ? 'sandbox' : 'square') : null,
    credentials: c ? { app_id: c.app_id, location_id: c.location_id } : null,
    paying: snapshot.hasTag('paying'),
    cardError: snapshot.context.cardError,
  };
}

export function squareSenders(send: (event: SquareEvent) => void) {
  return { submitCard: () => send({ type: 'CARD_SUBMITTED' }) };
}
