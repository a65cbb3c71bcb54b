/**
 * A seating provider that keeps its own holds, as the domain's basket, reservation and completion
 * use it: seats.io when keyed (server/providers/seatsio.ts); none when our own seat map and holds
 * in the database serve the seats.
 */
export interface ChartSeat {
  section: string;
  row: string;
  number: string;
}

/** What the server asks of a seating provider that keeps its own holds (seats.io). */
export interface SeatingProvider {
  readonly name: 'seatsio';
  /** Refuses, in the buyer's words, unless every seat is held now under `holdToken` on the event. */
  checkHeld(eventKey: string, seats: ChartSeat[], holdToken: string): Promise<void>;
  /**
   * Books the seats for the order: under the hold token while it holds them, else only if they are
   * free. Answers false when any of them went to someone else. Booking again for the same order
   * answers true. Throws when seats.io cannot be reached (the payment is settled again later).
   */
  book(eventKey: string, seats: ChartSeat[], holdToken: string, orderId: string): Promise<boolean>;
  /** Gives back seats held under the token, or booked seats without one; a hold that already ended is no error. */
  release(eventKey: string, seats: ChartSeat[], holdToken: string | null): Promise<void>;
  /**
   * Makes the hold token last until `until` (a reservation's countdown, a payment's grace). Best
   * effort: a token that ended already stays ended, and booking checks the seats again.
   */
  extendHold(holdToken: string, until: Date, now: Date): Promise<void>;
}
