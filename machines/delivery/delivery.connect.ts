/** What the delivery screen shows, and the events it may send. */
import type { SnapshotFrom } from 'xstate';
import type { DeliveryEvent, deliveryMachine } from './delivery.machine';

/** Where one stage stands: not started, in flight, done, or stopped by a failure. */
export type StageStatus = 'waiting' | 'delivering' | 'delivered' | 'failed';

export interface DeliveryView {
  /** Tickets into the ticket wallet. */
  tickets: StageStatus;
  /** The wallet by e-mail. */
  wallet: StageStatus;
  problem: string | null;
  errorCode: number | null;
  canRetry: boolean;
  /** Both stages are done (the wallet goes out only after the tickets are in it). */
  complete: boolean;
}

type DeliverySnapshot = SnapshotFrom<typeof deliveryMachine>;

function stages(snapshot: DeliverySnapshot): Pick<DeliveryView, 'tickets' | 'wallet'> {
  if (snapshot.matches('starting')) return { tickets: 'waiting', wallet: 'waiting' };
  if (snapshot.matches('deliveringTickets')) return { tickets: 'delivering', wallet: 'waiting' };
  if (snapshot.matches('ticketsNotDelivered')) return { tickets: 'failed', wallet: 'waiting' };
  if (snapshot.matches('deliveringWallet')) return { tickets: 'delivered', wallet: 'delivering' };
  if (snapshot.matches('walletNotDelivered')) return { tickets: 'delivered', wallet: 'failed' };
  if (snapshot.matches('ticketsFailed')) return { tickets: 'failed', wallet: 'waiting' };
  if (snapshot.matches('walletFailed')) return { tickets: 'delivered', wallet: 'failed' };
  return { tickets: 'delivered', wallet: 'delivered' };
}

export function viewDelivery(snapshot: DeliverySnapshot): DeliveryView {
  const { problem, errorCode } = snapshot.context;
  const { tickets, wallet } = stages(snapshot);
  return {
    tickets,
    wallet,
    problem,
    errorCode,
    canRetry: snapshot.can({ type: 'RETRY_CLICKED' }),
    complete: wallet === 'delivered',
  };
}

export function deliverySenders(send: (event: DeliveryEvent) => void) {
  return {
    retry: () => send({ type: 'RETRY_CLICKED' }),
  };
}
