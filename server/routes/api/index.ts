/**
 * The wire contract's calls (/ajax/…, and the order form's /do/checkout/add/), each a thin mapping
 * from a validated request to one domain function, a file per part of the checkout; with the
 * payment processors' returns and webhooks. The sandboxes' own calls are served in demo mode only
 * (../sandbox/).
 */
import type { FastifyPluginAsync } from 'fastify';
import { registerCalls, type Handlers, type SandboxCall } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { accountHandlers, accountInvalid } from './account.ts';
import { addressHandlers } from './address.ts';
import { afterSaleHandlers } from './afterSale.ts';
import { bankTransferHandlers, registerBankTransferRoutes } from './bankTransfer.ts';
import { basketHandlers, basketInvalid } from './basket.ts';
import { deliveryHandlers } from './delivery.ts';
import { donationHandlers, donationInvalid } from './donation.ts';
import { registerErrorReports } from './errorReports.ts';
import { planHandlers, planInvalid } from './instalments.ts';
import { paymentHandlers, paymentInvalid, registerPaymentRoutes } from './payment.ts';
import { questionHandlers } from './questions.ts';
import { seatHandlers } from './seats.ts';
import { registerSquareScript, squareHandlers, squareInvalid } from './square.ts';
import { transferHandlers } from './transfers.ts';

export const api: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  const handlers: Omit<Handlers, SandboxCall> = {
    ...basketHandlers(deps),
    ...accountHandlers(deps),
    ...addressHandlers(deps),
    ...donationHandlers(deps),
    ...deliveryHandlers(deps),
    ...transferHandlers(deps),
    ...paymentHandlers(deps, deps.payment),
    ...bankTransferHandlers(deps),
    ...planHandlers(deps),
    ...squareHandlers(deps),
    ...questionHandlers(deps),
    ...seatHandlers(deps),
    ...afterSaleHandlers(deps),
  };
  registerCalls(app, handlers, {
    ...basketInvalid,
    ...accountInvalid,
    ...donationInvalid,
    ...paymentInvalid,
    ...planInvalid,
    ...squareInvalid,
  });
  registerPaymentRoutes(app, deps, deps.payment);
  registerBankTransferRoutes(app, deps);
  registerErrorReports(app);
  registerSquareScript(app, deps);
};
