/**
 * What the order-completed screen shows, and the senders it may call: the chart's view (sub-view,
 * dialogs, subscription, copy button, notice) and the tiles' rules of spec 001 §2, which are pure
 * functions of the checkout, the user and the referral link.
 */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { Checkout } from '../../contract';
import { ukToday } from '../../contract';
import { transferableTickets } from '../transfers/transferRows';
import type { orderCompletedMachine, OrderCompletedNotice } from './orderCompleted.machine';
import { ORDER_COMPLETED_MESSAGES } from '../../contract/messages/orderCompleted';

export type OrderCompletedSubView = 'overview' | 'transfer_tickets' | 'find_a_place';

export interface OrderCompletedView {
  subView: OrderCompletedSubView;
  mapEventId: number | null;
  feedback: { open: boolean; sending: boolean; message: string; canSend: boolean };
  share: { open: boolean; copyLabel: string; copying: boolean };
  subscription: { subscribing: boolean; subscribed: boolean };
  /** The referral link; null while it is read and when there is none. */
  referrerLink: string | null;
  /** The tickets were transferred in this visit: the transfer tile goes. */
  transferred: boolean;
  notice: OrderCompletedNotice | null;
}

export function viewOrderCompleted(snapshot: SnapshotFrom<typeof orderCompletedMachine>): OrderCompletedView {
  const c = snapshot.context;
  const sending = snapshot.matches({ dialog: { feedback: 'sending' } });
  return {
    subView: snapshot.matches({ view: 'transfer_tickets' })
      ? 'transfer_tickets'
      : snapshot.matches({ view: 'find_a_place' })
        ? 'find_a_place'
        : 'overview',
    mapEventId: c.mapEventId,
    feedback: {
      open: snapshot.matches({ dialog: 'feedback' }),
      sending,
      message: c.message,
      canSend: !sending && c.message.trim().length > 0,
    },
    share: {
      open: snapshot.matches({ dialog: 'share' }),
      copyLabel: snapshot.matches({ dialog: { share: 'copied' } })
        ? ORDER_COMPLETED_MESSAGES.copied
        : ORDER_COMPLETED_MESSAGES.copy,
      copying: snapshot.matches({ dialog: { share: 'copying' } }),
    },
    subscription: {
      subscribing: snapshot.matches({ subscription: 'subscribing' }),
      subscribed: snapshot.matches({ subscription: 'subscribed' }),
    },
    referrerLink: c.referrerLink,
    transferred: c.transferred,
    notice: c.notice,
  };
}

export function orderCompletedSenders(send: ActorRefFrom<typeof orderCompletedMachine>['send']) {
  return {
    /** Opens the Transfer tickets form with the order's tickets that can be transferred, as of `now` in the UK. */
    openTransfer: (checkout: Checkout, now: Date) =>
      send({ type: 'TRANSFER_OPENED', tickets: transferableTickets(checkout), today: ukToday(now) }),
    openFindAPlace: () => send({ type: 'FIND_A_PLACE_OPENED' }),
    chooseMapEvent: (eventId: number) => send({ type: 'MAP_EVENT_CHOSEN', eventId }),
    back: () => send({ type: 'BACK_CLICKED' }),
    transferred: () => send({ type: 'TICKETS_TRANSFERRED' }),
    openFeedback: () => send({ type: 'FEEDBACK_OPENED' }),
    changeFeedback: (message: string) => send({ type: 'FEEDBACK_CHANGED', message }),
    sendFeedback: () => send({ type: 'SEND_CLICKED' }),
    openShare: () => send({ type: 'SHARE_OPENED' }),
    copy: (text: string) => send({ type: 'COPY_CLICKED', text }),
    shareSheet: (text: string) => send({ type: 'SHARE_SHEET_CLICKED', text }),
    closeDialog: () => send({ type: 'DIALOG_CLOSED' }),
    subscribe: () => send({ type: 'SUBSCRIBE_CLICKED' }),
    dismissNotice: () => send({ type: 'NOTICE_DISMISSED' }),
  };
}

type Event = Checkout['events'][number];

/** An event the accommodation map can be centred on: its venue has a full address. */
export function hasFullVenue(event: Event): event is Event & { venue: NonNullable<Event['venue']> } {
  return event.venue !== null && event.venue.full_address.trim() !== '' && event.venue.map_address.trim() !== '';
}

export interface TileFacts {
  checkout: Pick<Checkout, 'events' | 'tickets'>;
  /** Null for a buyer not signed in. */
  user: { is_event_subscribed: boolean } | null;
  view: Pick<OrderCompletedView, 'referrerLink' | 'subscription' | 'transferred'>;
  /** Whether this order's tickets may be transferred (the transfers' own rule). */
  canTransfer: boolean;
  /** Whether the site embeds an accommodation map. */
  accommodationMap: boolean;
}

export interface OrderCompletedTiles {
  /** The first event with a livestream: its online access address. */
  livestream: { title: string; href: string } | null;
  /** Shown only if transfer is allowed; disabled when every ticket is seated. */
  transfer: { disabled: boolean } | null;
  /** Shown only if some event has a full venue address. */
  findAPlace: boolean;
  /** Shown only if a reward-referrer link exists. */
  share: { label: string } | null;
  /** 'Subscribe to important updates', only for a buyer not yet subscribed. */
  subscribe: boolean;
}

export function orderCompletedTiles(f: TileFacts): OrderCompletedTiles {
  const live = f.checkout.events.find((e) => e.has_livestream && e.access_online);
  const events = f.checkout.events;
  const everyRewarded = events.length > 0 && events.every((e) => e.reward_referrers !== null);
  return {
    livestream: live ? { title: live.title, href: live.access_online! } : null,
    transfer:
      f.canTransfer && !f.view.transferred
        ? { disabled: f.checkout.tickets.length > 0 && f.checkout.tickets.every((t) => t.seats.length > 0) }
        : null,
    findAPlace: f.accommodationMap && events.some(hasFullVenue),
    share: f.view.referrerLink
      ? {
          label: everyRewarded
            ? ORDER_COMPLETED_MESSAGES.shareWithReward(events[0]!.reward_referrers!.short_text)
            : ORDER_COMPLETED_MESSAGES.shareWithFriends,
        }
      : null,
    subscribe: f.user !== null && !f.user.is_event_subscribed && !f.view.subscription.subscribed,
  };
}

/**
 * The text a buyer shares (spec 001 §9): with a reward for every event, the reward text followed
 * by the referrer link; otherwise what they bought, with the event's shareable link (made absolute).
 */
export function shareTextOf(events: Checkout['events'], referrerLink: string, brand: string, origin: string): string {
  const first = events[0];
  if (!first) return referrerLink;
  if (events.every((e) => e.reward_referrers !== null))
    return ORDER_COMPLETED_MESSAGES.rewardShareText(first.reward_referrers!.text, referrerLink);
  return ORDER_COMPLETED_MESSAGES.shareText(brand, first.title, new URL(first.shareable_link, origin).href);
}
