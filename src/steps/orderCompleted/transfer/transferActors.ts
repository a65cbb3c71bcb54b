/**
 * The transfers chart with the app's call: set_transfers. A refusal the server explains (4xx) is
 * shown in its words; any other failure shows the spec's text.
 */
import { fromPromise } from 'xstate';
import type { RequestOf, ResponseOf } from '../../../../contract';
import { TRANSFER_MESSAGES } from '../../../../contract/messages/transfers';
import { transfersMachine } from '../../../../machines/transfers/transfers.machine';
import { CallFailed, callApi } from '../../../api/client';

export function failureText(err: unknown): string {
  return err instanceof CallFailed && err.serverMessage && err.status !== null && err.status >= 400 && err.status < 500
    ? err.serverMessage
    : TRANSFER_MESSAGES.unableToSend;
}

export function appTransfersMachine() {
  return transfersMachine.provide({
    actors: {
      setTransfers: fromPromise<ResponseOf<'setTransfers'>, RequestOf<'setTransfers'>>(async ({ input }) => {
        try {
          return await callApi('setTransfers', input);
        } catch (err) {
          throw new Error(failureText(err), { cause: err });
        }
      }),
    },
  });
}
