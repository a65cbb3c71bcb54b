/**
 * Which processor took a payment, for the reconciliation job: the card processor (Stripe or the
 * sandbox), the bank (TrueLayer or the sandbox bank) or Square, each as this server is wired.
 */
import type { ProcessorLinks, ProcessorRecord } from '../domain/payment/reconcile.ts';
import type { Providers } from './index.ts';

export function processorLinks(deps: Pick<Providers, 'payment' | 'bank' | 'plans'>): ProcessorLinks {
  return (payment) => {
    switch (payment.provider) {
      case 'sandbox':
      case 'stripe': {
        const processor = deps.payment.processor;
        return {
          refunder: processor,
          async retrieve(id): Promise<ProcessorRecord | null> {
            const found = await processor.retrieve(id);
            if (!found) return null;
            return { ...found, status: found.status === 'requires_action' ? 'processing' : found.status };
          },
          async cancel(id) {
            const cancel = (processor as { cancel?: (paymentId: string) => Promise<void> }).cancel;
            if (cancel) await cancel.call(processor, id);
          },
        };
      }
      case 'sandbox_bank':
      case 'truelayer': {
        const bank = deps.bank.bank;
        return {
          refunder: bank,
          async retrieve(id): Promise<ProcessorRecord | null> {
            const word = await bank.retrieve(id);
            return word
              ? {
                  status: word.status,
                  amount: payment.amount,
                  currency: payment.currency,
                  failureMessage: word.failureMessage,
                }
              : null;
          },
          // A bank payment the buyer did not authorise lapses at the bank.
          async cancel() {},
        };
      }
      case 'square': {
        const square = deps.plans.square;
        return {
          refunder: { refund: (r) => square.refund({ ...r, currency: payment.currency }) },
          // Square's record of a payment it took (none for one it never took, nor in the sandbox).
          async retrieve(id): Promise<ProcessorRecord | null> {
            const found = await square.retrieve(id);
            if (!found) return null;
            return { ...found, status: found.status === 'requires_action' ? 'processing' : found.status };
          },
          cancel: (id) => square.cancel(id),
          complete: (id) => square.complete(id),
        };
      }
    }
  };
}
