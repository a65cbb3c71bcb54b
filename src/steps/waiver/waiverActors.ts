/** The waiver chart with the browser's clipboard and share sheet. */
import { fromPromise } from 'xstate';
import { waiverMachine } from '../../../machines/waiver/waiver.machine';

export function appWaiverMachine() {
  return waiverMachine.provide({
    actors: {
      copyLink: fromPromise<void, { text: string }>(({ input }) => navigator.clipboard.writeText(input.text)),
    },
    actions: {
      openShareSheet: (_, params: { url: string; title: string }) => {
        // A buyer who closes the share sheet has not failed at anything.
        void navigator.share?.({ title: params.title, url: params.url }).catch(() => undefined);
      },
    },
  });
}
