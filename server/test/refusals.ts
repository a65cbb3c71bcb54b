/** A domain refusal as the web layer answers it, for tests that call the domain directly. */
import { Refusal } from '../domain/refusal.ts';
import { refusalStatus } from '../http/refusals.ts';

export function answerOf(refusal: Refusal): { status: number; message: string } {
  return { status: refusalStatus(refusal), message: refusal.message };
}

/** The refusal a call ends with, as answered; anything else it ends with is passed on. */
export async function refusalOf(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await call;
  } catch (err) {
    if (err instanceof Refusal) return answerOf(err);
    throw err;
  }
  throw new Error('The call was not refused');
}
