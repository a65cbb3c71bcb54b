/** The transfer screen's words (spec 001 §2 Transfer tickets, §5 Transfer row, §8). */
export const TRANSFER_MESSAGES = {
  isGift: 'This ticket is a gift',
  sendNow: 'Send now',
  schedule: 'Schedule',
  message: 'Message (optional)',
  sendTickets: 'Send tickets',
  transferred: 'Your tickets have been transferred',
  enterName: 'Please enter a name',
  enterEmail: 'Please enter an email',
  enterDate: 'Please enter a date',
  enterTime: 'Please enter a time',
  /** Spec 001 §5 says a delivery date cannot be in the past; its words for that are not shown. */
  pastDate: 'Please choose today or a later date',
  unableToSend: 'Unable to send tickets. Please try again later',
  fullName: 'Full name',
  email: 'Email',
  deliveryDate: 'Delivery date',
  deliveryTime: 'Delivery time',
} as const;
