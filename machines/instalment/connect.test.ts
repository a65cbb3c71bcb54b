import { describe, expect, it } from 'vitest';
import { instalmentSenders } from './instalment.connect';
import type { InstalmentEvent } from './instalment.types';

/** What Stripe's card form for a plan's new card sends the instalment chart. */
describe('instalment senders', () => {
  it('turns Pay on Stripe’s form into CARD_SUBMITTED, and a form that could not load into CARD_FORM_FAILED', () => {
    const sent: InstalmentEvent[] = [];
    const senders = instalmentSenders((event) => sent.push(event));
    senders.submitCard();
    senders.cardFormFailed();
    expect(sent).toEqual([{ type: 'CARD_SUBMITTED' }, { type: 'CARD_FORM_FAILED' }]);
  });
});
