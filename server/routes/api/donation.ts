/** save_donation and update_donation: thin mappings onto the donation domain. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DONATION_MESSAGES, GIFT_AID_MESSAGES } from '../../../contract/messages/donation.ts';
import { saveDonation, updateDonation } from '../../domain/donation.ts';
import { Refusal } from '../../domain/refusal.ts';
import type { Handlers, InvalidHandler } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { userIdOf } from '../../http/session.ts';

export function donationHandlers(deps: AppDeps): Pick<Handlers, 'saveDonation' | 'updateDonation'> {
  const { db, clock } = deps;
  async function saleFor(request: FastifyRequest, refusal: string): Promise<string> {
    const sale = await request.visitorSale();
    if (!sale) throw new Refusal('hold-lost', refusal);
    return sale.id;
  }
  return {
    saveDonation: async ({ input, request }) => {
      const saleId = await saleFor(request, DONATION_MESSAGES.problemSettingAmount);
      await saveDonation(db, saleId, { amount: input.amount_before_booking_fee, charityId: input.charity_id }, clock());
      return { success: true };
    },
    updateDonation: async ({ input, request }) => {
      const saleId = await saleFor(request, GIFT_AID_MESSAGES.problemSettingStatus);
      await updateDonation(
        db,
        saleId,
        {
          isGiftAid: input.is_gift_aid,
          subscribe: input.subscribe ?? false,
          ukBased: input.uk_based ?? true,
          address1: input.address1 ?? '',
          postcode: input.postcode ?? '',
        },
        clock(),
        userIdOf(request),
      );
      return { success: true };
    },
  };
}

/** A request the contract refuses is answered with the spec's own words for the step. */
export const donationInvalid: Partial<Record<'saveDonation' | 'updateDonation', InvalidHandler>> = {
  saveDonation: async (request: FastifyRequest, reply: FastifyReply, message: string) => {
    const amountMissing = /^Invalid amount_before_booking_fee/.test(message);
    return reply
      .status(400)
      .send({ error: amountMissing ? DONATION_MESSAGES.selectAnAmount : DONATION_MESSAGES.problemSettingAmount });
  },
  updateDonation: async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.status(400).send({ error: GIFT_AID_MESSAGES.problemSettingStatus }),
};
