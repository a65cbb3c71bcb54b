/** The delivery step's address form: the address and the gift voucher names go to set_delivery_address. */
import type { QueryClient } from '@tanstack/react-query';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address';
import type { AddressOutcome } from '../../../machines/address/address.machine';
import { CallFailed, callApi } from '../../api/client';
import { queryKey } from '../../api/queries';
import { appAddressMachine } from '../../components/address/addressActors';

/** A refusal the server explains is shown in its words; anything else is the spec's notification. */
async function setDeliveryAddress(queryClient: QueryClient, outcome: AddressOutcome) {
  try {
    const done = await callApi('setDeliveryAddress', outcome);
    // A signed-in buyer's new address is saved for next time (the billing form offers it).
    await queryClient.invalidateQueries({ queryKey: queryKey('addresses') });
    return done;
  } catch (err) {
    const explained =
      err instanceof CallFailed &&
      err.serverMessage &&
      err.status !== null &&
      err.status < 500 &&
      !err.serverMessage.startsWith('Invalid ');
    throw new Error(explained ? err.serverMessage! : ADDRESS_MESSAGES.unableToSetDelivery, { cause: err });
  }
}

export function appDeliveryAddressMachine(queryClient: QueryClient) {
  return appAddressMachine(queryClient, (outcome) => setDeliveryAddress(queryClient, outcome));
}
