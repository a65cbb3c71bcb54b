/** The notes the tooltips give (what the refund policy and the purchase terms section 4.10 say). */
export const BOOKING_FEE_NOTE = 'Booking fees generally cannot be refunded; your statutory rights are unaffected (purchase terms, section 4.10).';
export const NON_REFUNDABLE_NOTE = 'This ticket cannot be refunded unless the event is cancelled.';
