import { describe, expect, it } from 'vitest';
import { reserveBlockedReason } from './reserveBlocked';

describe('why Reserve Basket is disabled', () => {
  const none = { canReserve: false, missingRequired: false, belowMinimum: false, saving: false };

  it('says nothing when the basket can be reserved', () => {
    expect(reserveBlockedReason({ ...none, canReserve: true, saving: true })).toBeNull();
  });

  it('names the first thing the buyer has to fix: a missing ticket, then a minimum, then a change being saved', () => {
    expect(reserveBlockedReason({ ...none, missingRequired: true, belowMinimum: true, saving: true })).toBe(
      'Add the tickets listed above to reserve.',
    );
    expect(reserveBlockedReason({ ...none, belowMinimum: true, saving: true })).toBe(
      'Some tickets are below their minimum quantity.',
    );
    expect(reserveBlockedReason({ ...none, saving: true })).toBe('Saving your changes…');
  });
});
