/** What the Keep updated screen shows, and the senders it may call. */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { marketingMachine } from './marketing.machine';

export interface MarketingView {
  loading: boolean;
  /** 'Strongly Recommended' event updates: only for a buyer not already subscribed to them. */
  eventUpdates: { shown: boolean; checked: boolean };
  /** The community newsletter: hidden when the buyer is already subscribed. */
  newsletter: { shown: boolean; checked: boolean };
  organisers: { id: number; message: string; checked: boolean }[];
  saving: boolean;
  saved: boolean;
  error: string | null;
}

export function viewMarketing(snapshot: SnapshotFrom<typeof marketingMachine>): MarketingView {
  const c = snapshot.context;
  return {
    loading: snapshot.matches('loading'),
    eventUpdates: { shown: !(c.preferences?.event_subscribed ?? false), checked: c.eventUpdates },
    newsletter: { shown: !(c.preferences?.ct_subscribed ?? false), checked: c.newsletter },
    organisers: (c.preferences?.basket_organisers ?? []).map((o) => ({
      id: o.id,
      message: o.marketing_signup_message,
      checked: c.organisers[String(o.id)] ?? false,
    })),
    saving: snapshot.matches('saving'),
    saved: snapshot.status === 'done',
    error: c.error,
  };
}

export function connectMarketing(
  snapshot: SnapshotFrom<typeof marketingMachine>,
  send: ActorRefFrom<typeof marketingMachine>['send'],
) {
  return {
    ...viewMarketing(snapshot),
    toggleEventUpdates: () => send({ type: 'EVENT_UPDATES_TOGGLED' }),
    toggleNewsletter: () => send({ type: 'NEWSLETTER_TOGGLED' }),
    toggleOrganiser: (organiserId: number) => send({ type: 'ORGANISER_TOGGLED', organiserId }),
    save: () => send({ type: 'SAVE_CLICKED' }),
  };
}
