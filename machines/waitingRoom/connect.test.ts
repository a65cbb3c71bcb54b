/**
 * What the queue page shows in each phase, read from the chart's state and the server's last
 * status: where the buyer is in line, how far along, the organiser's words, and which forms are offered.
 */
import { describe, expect, it } from 'vitest';
import { viewWaitingRoom } from './waitingRoom.connect';
import { beforeSaleMessage, QUEUE_MESSAGES, waitingMessage, type QueueStatus } from '../../contract/waitingRoom';

const status = (fields: Partial<QueueStatus>): QueueStatus => ({
  state: 'waiting',
  position: 12,
  ahead: 11,
  wait_seconds: 300,
  progress: 0.4,
  opens_in_seconds: null,
  poll_ms: 2000,
  event_url: '/event/summer-jazz/',
  event_title: 'Summer Jazz on the Quay',
  ticket_types: [{ id: 3, name: 'Standing' }],
  organiser_message: 'Doors open at 7pm.',
  ...fields,
});

const at = (queue: string, last: QueueStatus | null, waitingList = 'idle') =>
  viewWaitingRoom({
    value: { queue, waitingList } as never,
    context: { status: last, listMessage: null, listFailed: false } as never,
  });

describe('the queue page’s view', () => {
  it('while waiting: the place in line, the wait, how far along, the organiser’s words and the turn mail', () => {
    expect(at('waiting', status({}))).toMatchObject({
      phase: 'waiting',
      position: 12,
      message: waitingMessage(12, 300),
      progress: 0.4,
      offerTurnMail: true,
      offerWaitingList: false,
      organiserMessage: 'Doors open at 7pm.',
      ticketTypes: [{ id: 3, name: 'Standing' }],
    });
  });

  it('before the sale: when it opens, no place in line shown, the turn mail offered', () => {
    expect(at('waiting', status({ state: 'before-sale', opens_in_seconds: 600 }))).toMatchObject({
      phase: 'before-sale',
      position: null,
      message: beforeSaleMessage(600),
      offerTurnMail: true,
    });
  });

  it('admitted: all the way along, and no turn mail', () => {
    expect(at('admitted', status({ state: 'admitted', progress: 0.4 }))).toMatchObject({
      phase: 'admitted',
      progress: 1,
      position: null,
      message: QUEUE_MESSAGES.admitted,
      offerTurnMail: false,
    });
  });

  it('sold out: the waiting list is offered with the date’s ticket types, not the turn mail', () => {
    expect(at('soldOut', status({ state: 'sold-out' }))).toMatchObject({
      phase: 'sold-out',
      offerWaitingList: true,
      offerTurnMail: false,
      ticketTypes: [{ id: 3, name: 'Standing' }],
      message: QUEUE_MESSAGES.soldOut,
    });
  });

  it('before any status: checking or joining offer the turn mail, with nothing of a status to show', () => {
    for (const [queue, phase] of [
      ['checking', 'checking'],
      ['joining', 'joining'],
    ] as const) {
      expect(at(queue, null)).toMatchObject({
        phase,
        offerTurnMail: true,
        ticketTypes: [],
        position: null,
        progress: 0,
        organiserMessage: undefined,
      });
    }
    expect(at('joinFailed', null)).toMatchObject({ phase: 'join-failed', offerTurnMail: false, canRetry: true });
  });

  it('a status without the organiser’s words shows none', () => {
    expect(at('waiting', status({ organiser_message: undefined })).organiserMessage).toBeNull();
  });
});
