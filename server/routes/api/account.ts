/** The account and marketing calls (spec 000 §7), each a thin mapping onto one domain function. */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { NOT_AN_EMAIL, NOT_A_FULL_NAME } from '../../../contract/index.ts';
import { ACCOUNT_MESSAGES } from '../../../contract/messages/account.ts';
import { logoutOfSale, saveGuestToSale, signInWithCode } from '../../domain/account.ts';
import { isRefusal, Refusal } from '../../domain/refusal.ts';
import { setMarketingPreferences } from '../../domain/marketing.ts';
import { offerResumeLinkAfter } from '../../http/resumeLink.ts';
import type { Handlers, InvalidHandler } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { sendCodeFrom } from '../../http/signInCode.ts';
import { holdLostBody, refusalBody, refusalStatus } from '../../http/refusals.ts';
import { saleIdOf, setSaleCookie, signIn, signOut } from '../../http/session.ts';
import { inActiveLanguage } from '../../../i18n/catalogues.ts';

const NO_SALE_MESSAGE = 'Your basket could not be found. Please add your tickets again.';

type AccountCall =
  'sendOneTimeCode' | 'checkOneTimeCode' | 'saveGuestToSale' | 'logoutOfSale' | 'setMarketingPreferences';

export function accountHandlers(deps: AppDeps): Pick<Handlers, AccountCall> {
  const { db, config, clock, mailer } = deps;
  // A share link's reward, for an express purchase whose buyer proves their address at last.
  const rewards = { mailer, brandName: config.brandName, publicUrl: config.publicUrl };

  async function existingSale(request: FastifyRequest): Promise<string> {
    const sale = await request.visitorSale();
    if (!sale) throw new Refusal('not-found', NO_SALE_MESSAGE);
    return sale.id;
  }

  return {
    sendOneTimeCode: async ({ input, request }) => {
      await sendCodeFrom(deps, request, input.email);
      return { success: true };
    },
    checkOneTimeCode: async ({ input, request, reply }) => {
      try {
        const signedIn = await signInWithCode(db, {
          saleId: saleIdOf(request),
          email: input.email,
          code: input.code,
          now: clock(),
          secret: config.sessionSecret,
          rewards,
        });
        if (signedIn.user) await signIn(request, reply, signedIn.user.id);
        if (signedIn.saleId) setSaleCookie(request, reply, signedIn.saleId);
        if (signedIn.user) await offerResumeLinkAfter(deps, request, signedIn.saleId);
        return { has_account: signedIn.hasAccount };
      } catch (err) {
        if (!(err instanceof Refusal) || (err.code !== 'hold-lost' && err.code !== 'wrong-code')) throw err;
        reply.status(refusalStatus(err));
        return (
          err.code === 'hold-lost'
            ? { ...holdLostBody(err), message: { error: inActiveLanguage(err.message) } }
            : { ...refusalBody(err, true), message: inActiveLanguage(err.message) }
        ) as never;
      }
    },
    saveGuestToSale: async ({ input, request, reply }) => {
      try {
        const saleId = await existingSale(request);
        const user = await saveGuestToSale(db, {
          saleId,
          email: input.email,
          fullname: input.fullname,
          now: clock(),
          rewards,
        });
        await signIn(request, reply, user.id);
        await offerResumeLinkAfter(deps, request, saleId);
        return { success: true };
      } catch (err) {
        if (!isRefusal(err, 'hold-lost')) throw err;
        reply.status(refusalStatus(err));
        return { ...holdLostBody(err), message: { error: inActiveLanguage(err.message) } } as never;
      }
    },
    logoutOfSale: async ({ request, reply }) => {
      await logoutOfSale(db, saleIdOf(request));
      await signOut(request, reply);
      return { success: true };
    },
    setMarketingPreferences: async ({ input, request }) => {
      await setMarketingPreferences(db, await existingSale(request), input, clock());
      return { success: true };
    },
  };
}

/** A refused e-mail address or one-word name is answered with the account step's words (spec 000 §5). */
async function accountRefused(_request: FastifyRequest, reply: FastifyReply, message: string) {
  return reply.status(400).send({
    error: message
      .replace(NOT_AN_EMAIL, ACCOUNT_MESSAGES.invalidEmail)
      .replace(NOT_A_FULL_NAME, ACCOUNT_MESSAGES.fullName),
  });
}

export const accountInvalid: Partial<
  Record<'sendOneTimeCode' | 'checkOneTimeCode' | 'saveGuestToSale', InvalidHandler>
> = {
  sendOneTimeCode: accountRefused,
  checkOneTimeCode: accountRefused,
  saveGuestToSale: accountRefused,
};
