/** The address calls: thin mappings onto the address domain and the address finder. */
import { FIND_MIN_CHARACTERS } from '../../../contract/index.ts';
import { ADDRESS_MESSAGES } from '../../../contract/messages/address.ts';
import { deleteSavedAddress, listSavedAddresses, setDeliveryAddress } from '../../domain/address.ts';
import { COUNTRIES, STATES } from '../../domain/addressCountries.ts';
import { Refusal } from '../../domain/refusal.ts';
import type { Handlers } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { saleIdOf, userIdOf } from '../../http/session.ts';

type AddressCalls =
  'getAddressAllCountriesStates' | 'getUserAddresses' | 'lookupAddress' | 'deleteAddress' | 'setDeliveryAddress';

export function addressHandlers(deps: AppDeps): Pick<Handlers, AddressCalls> {
  const { db, clock, addressFinder: finder } = deps;
  return {
    getAddressAllCountriesStates: async ({ reply }) => {
      reply.header('cache-control', 'private, max-age=86400');
      return { countries: [...COUNTRIES], states: [...STATES] };
    },
    /** Saved addresses are loaded only for signed-in buyers (spec 000 §6); anyone else has none. */
    getUserAddresses: async ({ request }) => {
      const userId = userIdOf(request);
      return { existing_addresses: userId === null ? [] : await listSavedAddresses(db, userId) };
    },
    lookupAddress: async ({ input }) => {
      const query = input.address.trim();
      return { possible_addresses: query.length < FIND_MIN_CHARACTERS ? [] : await finder.find(query) };
    },
    deleteAddress: async ({ input, request }) => {
      const userId = userIdOf(request);
      if (userId === null) throw new Refusal('sign-in-needed', ADDRESS_MESSAGES.savedAddressGone);
      await deleteSavedAddress(db, userId, input.address_id);
      return { success: true };
    },
    setDeliveryAddress: async ({ input, request }) => {
      const saleId = saleIdOf(request);
      if (!saleId) throw new Refusal('hold-lost', ADDRESS_MESSAGES.unableToSetDelivery);
      await setDeliveryAddress(db, saleId, userIdOf(request), input, clock());
      return { success: true };
    },
  };
}
