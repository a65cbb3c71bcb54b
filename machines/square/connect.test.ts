import { describe, expect, it } from 'vitest';
import { squareSenders } from './square.connect';

describe('square senders', () => {
  it('turn the card form’s submit into its event', () => {
    const sent: unknown[] = [];
    squareSenders((event) => sent.push(event)).submitCard();
    expect(sent).toEqual([{ type: 'CARD_SUBMITTED' }]);
  });
});
