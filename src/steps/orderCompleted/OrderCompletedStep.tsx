import { useQuery } from '@tanstack/react-query';
import { WALLET_PATH } from '../../../contract';
import { PLAN_COMPLETED_MESSAGES } from '../../../machines/instalment/instalment.messages';
import { ORDER_COMPLETED_MESSAGES } from '../../../machines/delivery/delivery.messages';
import { callApi } from '../../api/client';
import { Icon } from '../../components/Icon';
import { useCheckoutData, useUser } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import { LATER_STEP_TITLES } from '../stepTitles';
import '../delivery/delivery.css';

/** The sale's e-mail and reference (get_simple_info); a failure is silent (spec 001 §8). */
function useSimpleInfo() {
  return useQuery({ queryKey: ['simpleInfo'] as const, queryFn: () => callApi('getSimpleInfo'), retry: false }).data;
}

/** Order completed (spec 001 §2): the reference, the confirmation and the way to the ticket wallet. */
export default function OrderCompletedStep() {
  const checkout = useCheckoutData();
  const info = useSimpleInfo();
  const user = useUser();
  const reference = info?.sale_reference ?? checkout?.sale_reference ?? null;
  const email = info?.sale_email ?? user?.email ?? null;
  return (
    <StepLayout step="order_completed" title={LATER_STEP_TITLES.order_completed}>
      <div className="card stack order-complete">
        <span className="order-complete__tick">
          <Icon name="check" />
        </span>
        {reference ? (
          <p className="order-complete__reference">
            {ORDER_COMPLETED_MESSAGES.reference('')}
            <span>{reference}</span>
          </p>
        ) : null}
        {checkout?.payment_plan_remaining != null ? (
          // A payment plan's order (spec 001 §2): the schedule is set up, with what to know about it.
          <>
            <p className="order-complete__headline">{PLAN_COMPLETED_MESSAGES.title}</p>
            <section className="order-complete__important" aria-labelledby="plan-important">
              <h3 id="plan-important" className="section-title">
                Important information
              </h3>
              <ul>
                {PLAN_COMPLETED_MESSAGES.important.map((point) => (
                  <li key={point}>{point}</li>
                ))}
              </ul>
            </section>
          </>
        ) : (
          <>
            <p className="order-complete__headline">{ORDER_COMPLETED_MESSAGES.complete}</p>
            {email ? <p className="order-complete__email">{ORDER_COMPLETED_MESSAGES.walletSent(email)}</p> : null}
          </>
        )}
      </div>
      <ul className="order-tiles" role="list">
        <li>
          <a className="order-tile" href={WALLET_PATH}>
            <Icon name="ticket" />
            Go to ticket wallet
          </a>
        </li>
      </ul>
    </StepLayout>
  );
}
