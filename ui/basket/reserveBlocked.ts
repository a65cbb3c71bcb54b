import { t } from '../../i18n/runtime.ts';
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
  if (missingRequired) return t('basket.blockedRequired');
  if (belowMinimum) return t('basket.blockedMinimum');
  if (saving) return t('basket.blockedSaving');
  return null;
}
