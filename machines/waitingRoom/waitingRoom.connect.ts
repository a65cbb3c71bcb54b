/** What the queue page shows, read from the chart's snapshot; the page renders this and nothing else. */
import type { SnapshotFrom } from 'xstate';
import type { waitingRoomMachine } from './waitingRoom.machine.ts';
import { beforeSaleMessage, QUEUE_MESSAGES, waitingMessage } from '../../contract/queuePage.ts';

export type QueuePhase =
  'checking' | 'joining' | 'join-failed' | 'before-sale' | 'waiting' | 'admitted' | 'sold-out' | 'offline';

export interface WaitingRoomView {
  phase: QueuePhase;
  message: string;
  position: number | null;
  /** 0 to 1. */
  progress: number;
  canRetry: boolean;
  /** The waiting list form is shown once sold out (and stays once used). */
  offerWaitingList: boolean;
  ticketTypes: { id: number; name: string }[];
  listSending: boolean;
  listJoined: boolean;
  listMessage: string | null;
  /** 'E-mail me when it is my turn' is offered to a buyer still waiting (or about to be). */
  offerTurnMail: boolean;
  /** What the organiser tells everyone waiting, as the last status had it (undefined before any status). */
  organiserMessage: string | null | undefined;
}

/** The message of each phase that says the same whatever the status, read in the buyer's language. */
const PHASE_MESSAGES = {
  checking: 'checking',
  joining: 'joining',
  'join-failed': 'joinFailed',
  offline: 'offline',
  admitted: 'admitted',
  'sold-out': 'soldOut',
} as const satisfies Record<Exclude<QueuePhase, 'before-sale' | 'waiting'>, keyof typeof QUEUE_MESSAGES>;

/** Reads only the snapshot's state and context, so the page's own small runner (src/queue/flow.ts) is read the same way. */
export function viewWaitingRoom(
  snapshot: Pick<SnapshotFrom<typeof waitingRoomMachine>, 'context' | 'value'>,
): WaitingRoomView {
  const { status, listMessage, listFailed } = snapshot.context;
  const queue = (snapshot.value as { queue: string }).queue;
  const list = (snapshot.value as { waitingList: string }).waitingList;
  let phase: QueuePhase;
  if (queue === 'checking')
    phase = status
      ? status.state === 'before-sale'
        ? 'before-sale'
        : status.state === 'sold-out'
          ? 'sold-out'
          : 'waiting'
      : 'checking';
  else if (queue === 'joining') phase = 'joining';
  else if (queue === 'joinFailed') phase = 'join-failed';
  else if (queue === 'offline') phase = 'offline';
  else if (queue === 'admitted') phase = 'admitted';
  else if (queue === 'soldOut') phase = 'sold-out';
  else phase = status?.state === 'before-sale' ? 'before-sale' : 'waiting';

  const message =
    phase === 'before-sale'
      ? beforeSaleMessage(status?.opens_in_seconds ?? 0)
      : phase === 'waiting'
        ? waitingMessage(status?.position ?? 0, status?.wait_seconds ?? 0)
        : QUEUE_MESSAGES[PHASE_MESSAGES[phase]];
  return {
    phase,
    message,
    position: phase === 'waiting' ? (status?.position ?? null) : null,
    progress: phase === 'admitted' ? 1 : (status?.progress ?? 0),
    canRetry: phase === 'join-failed',
    offerWaitingList: phase === 'sold-out' || list !== 'idle' || listMessage !== null || listFailed,
    ticketTypes: status?.ticket_types ?? [],
    listSending: list === 'sending',
    listJoined: list === 'joined',
    listMessage: listFailed ? (listMessage ?? QUEUE_MESSAGES.waitingListFailed) : listMessage,
    offerTurnMail: phase === 'waiting' || phase === 'before-sale' || phase === 'checking' || phase === 'joining',
    organiserMessage: status ? (status.organiser_message ?? null) : undefined,
  };
}
