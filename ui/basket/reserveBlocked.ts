/** Why 'Reserve Basket' is disabled, written next to it; null when it is enabled. */
export function reserveBlockedReason({
  canReserve,
  missingRequired,
  belowMinimum,
  saving,
}: {
  canReserve: boolean;
  missingRequired: boolean;
  belowMinimum: boolean;
  saving: boolean;
}): string | null {
  if (canReserve) return null;
  if (missingRequired) return 'Add the tickets listed above to reserve.';
  if (belowMinimum) return 'Some tickets are below their minimum quantity.';
  if (saving) return 'Saving your changes…';
  return null;
}
