/** After sale messages (spec 001 §2): each organiser message with its event, date and time, then Continue. */
import { LoadingButton } from '../../../ui/LoadingButton';
import { useCheckout, useCheckoutData } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import '../orderCompleted/orderCompleted.css';
import { t } from '../../../i18n/runtime.ts';

export default function AfterSaleMessagesStep() {
  const view = useCheckout();
  const messages = useCheckoutData()?.after_sale_messages ?? [];
  return (
    <StepLayout step="after_sale_messages">
      <ul className="after-sale" role="list">
        {messages.map((m, i) => (
          <li key={i} className="card stack after-sale__message">
            <h2 className="after-sale__organiser">{m.organiser_name}</h2>
            <p className="after-sale__event">
              <span className="after-sale__title">{m.event_title}</span>
              <span className="muted">{t('afterSale.when', { date: m.date, time: m.time })}</span>
            </p>
            <p className="after-sale__body">{m.message}</p>
          </li>
        ))}
      </ul>
      <div className="card">
        <LoadingButton loading={view.isAdvancing} className="button--block" onClick={view.continueStep}>
          {t('ui.continue')}
        </LoadingButton>
      </div>
    </StepLayout>
  );
}
