import { describe, expect, it } from 'vitest';
import { paymentSenders } from './payment.connect';

/** The payment screen's controls, each as the event of the spec's action (spec 001 §2 Payment, §4). */
describe('payment senders', () => {
  it('turn each control into its event', () => {
    const sent: unknown[] = [];
    const send = paymentSenders((event) => sent.push(event));
    send.change('contactNumber', '07700 900123');
    send.changeAddress('postcode', 'GL7 1AB');
    send.toggleOrganiser(4);
    send.toggleNewsletter();
    send.chooseMethod('truelayer');
    send.pay();
    send.retry();
    send.choosePlanOption('3');
    send.choosePlanCard('new');
    send.togglePlanDefault();
    expect(sent).toEqual([
      { type: 'FIELD_CHANGED', field: 'contactNumber', value: '07700 900123' },
      { type: 'FIELD_CHANGED', field: 'postcode', value: 'GL7 1AB' },
      { type: 'ORGANISER_TOGGLED', organiserId: 4 },
      { type: 'NEWSLETTER_TOGGLED' },
      { type: 'METHOD_CHOSEN', method: 'truelayer' },
      { type: 'PAY_CLICKED' },
      { type: 'RETRY_CLICKED' },
      { type: 'PLAN_OPTION_CHOSEN', option: '3' },
      { type: 'PLAN_CARD_CHOSEN', card: 'new' },
      { type: 'PLAN_DEFAULT_TOGGLED' },
    ]);
  });
});
