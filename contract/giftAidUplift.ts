/** Gift Aid's uplift, with no schemas, for the order summary the entry script shows. */
/** Gift Aid uplift: the charity claims 25 percent on top of the donation. */
export const GIFT_AID_UPLIFT_PERCENT = 25;

/** What Gift Aid adds to a donation, in minor units (rounded half up). */
export function giftAidUplift(amount: number): number {
  return Math.floor((amount * GIFT_AID_UPLIFT_PERCENT + 50) / 100);
}
