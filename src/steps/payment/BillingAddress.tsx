/**
 * The payment step's billing address: the shared address form (saved addresses, the finder,
 * country and state), run by the address chart the payment chart invokes as `billingAddress`, and
 * asked by Pay. While the payment is under way the chart is at rest, so the address given is shown.
 */
import { useQuery } from '@tanstack/react-query';
import type { ActorRefFrom } from 'xstate';
import { COUNTRY_USA, type AddressStart } from '../../../contract';
import type { addressMachine } from '../../../machines/address/address.machine';
import { AddressForm } from '../../components/address/AddressForm';
import { countriesStatesQuery, savedAddressesQuery } from '../../components/address/addressQueries';
import { useUser } from '../../app/checkoutContext';
import { t } from '../../../i18n/runtime.ts';

const legend = () => t('payment.billingAddress');

export function BillingAddress({
  actor,
  given,
  disabled,
}: {
  actor: ActorRefFrom<typeof addressMachine> | undefined;
  given: AddressStart | null;
  disabled: boolean;
}) {
  if (actor) return <AddressForm actor={actor} giftVouchers={false} inside={{ legend: legend(), disabled }} />;
  return given ? <GivenAddress given={given} /> : null;
}

/** The address the buyer gave, as lines. */
function GivenAddress({ given }: { given: AddressStart }) {
  const user = useUser();
  const saved = useQuery(savedAddressesQuery(user !== null && given.selected !== 'new' ? user.id : null)).data ?? [];
  const lists = useQuery(countriesStatesQuery()).data;
  let lines: string[];
  if (given.selected !== 'new') {
    const chosen = saved.find((a) => a.id === given.selected);
    lines = chosen ? [`${chosen.first_name} ${chosen.last_name}`, chosen.full_address] : [];
  } else {
    const f = given.fields;
    const country = lists?.countries.find((c) => c.id === f.country)?.name ?? '';
    const state = f.country === COUNTRY_USA ? f.state : '';
    lines = [
      `${f.first_name} ${f.last_name}`.trim(),
      [f.address_1, f.address_2, f.town, state, f.postcode, country].filter(Boolean).join(', '),
    ];
  }
  return (
    <fieldset className="payment__fieldset" disabled>
      <legend className="section-title">{legend()}</legend>
      <p className="payment__given">
        {lines.filter(Boolean).map((line) => (
          <span key={line}>
            {line}
            <br />
          </span>
        ))}
      </p>
    </fieldset>
  );
}
