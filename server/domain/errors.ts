/** A refusal a buyer can read; routes answer it as `{ error }` with the given 4xx status. */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422,
    message: string,
    /** Which of the pages' known notices (server/http/notices.ts) stands for it, and about which ticket type. */
    readonly notice?: { code: 'too-many' | 'too-few' | 'buyer-limit' | 'voucher' | 'not-on-sale'; ticketTypeId?: number },
  ) {
    super(message);
  }
}
