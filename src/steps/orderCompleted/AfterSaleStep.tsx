/**
 * The steps after the sale, in one chunk: the organisers' messages, then Order completed. A buyer
 * with messages reads them first; both screens share the order-completed styles.
 */
import AfterSaleMessagesStep from './AfterSaleMessagesStep';
import OrderCompletedStep from './OrderCompletedStep';

export default function AfterSaleStep({ step }: { step: 'after_sale_messages' | 'order_completed' }) {
  return step === 'after_sale_messages' ? <AfterSaleMessagesStep /> : <OrderCompletedStep />;
}
