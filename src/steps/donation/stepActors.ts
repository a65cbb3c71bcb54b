/**
 * The donation and Gift Aid charts with the app's calls: a refusal the server explains is shown in
 * its words; a request that fails otherwise shows the spec's notification text.
 */
import { fromPromise } from 'xstate';
import type { RequestOf } from '../../../contract';
import { DONATION_MESSAGES, GIFT_AID_MESSAGES } from '../../../contract/messages/donation';
import { donationMachine } from '../../../machines/donation/donation.machine';
import { giftAidMachine } from '../../../machines/donation/giftAid.machine';
import { CallFailed, callApi } from '../../api/client';

function failureText(err: unknown, fallback: string): string {
  return err instanceof CallFailed && err.serverMessage && err.status !== null && err.status < 500
    ? err.serverMessage
    : fallback;
}

export const appDonationMachine = donationMachine.provide({
  actors: {
    saveDonation: fromPromise(async ({ input }: { input: RequestOf<'saveDonation'> }) => {
      try {
        return await callApi('saveDonation', input);
      } catch (err) {
        throw new Error(failureText(err, DONATION_MESSAGES.unableToSave), { cause: err });
      }
    }),
  },
});

export const appGiftAidMachine = giftAidMachine.provide({
  actors: {
    updateDonation: fromPromise(async ({ input }: { input: RequestOf<'updateDonation'> }) => {
      try {
        return await callApi('updateDonation', input);
      } catch (err) {
        throw new Error(failureText(err, GIFT_AID_MESSAGES.unableToUpdate), { cause: err });
      }
    }),
  },
});
