/** A refusal a buyer can read; routes answer it as `{ error }` with the given 4xx status. */
export class DomainError extends Error {
  constructor(
    readonly status: 400 | 403 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}
