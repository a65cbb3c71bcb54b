/** What the waiver screen shows of its chart, and the events its buttons send. */
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { waiverMachine } from './waiver.machine';

export interface WaiverView {
  /** The link is being written to the clipboard: the copy button waits. */
  copying: boolean;
}

export function viewWaiver(snapshot: SnapshotFrom<typeof waiverMachine> | undefined): WaiverView {
  return { copying: snapshot?.matches('copying') ?? false };
}

export function waiverSenders(actor: ActorRefFrom<typeof waiverMachine> | undefined) {
  return {
    copyLink: (link: string) => actor?.send({ type: 'COPY_LINK_CLICKED', link }),
    share: (link: string, title: string) => actor?.send({ type: 'SHARE_CLICKED', link, title }),
  };
}
