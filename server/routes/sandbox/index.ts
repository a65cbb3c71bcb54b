/**
 * The sandboxes this server stands in for when a processor is not keyed, served in demo mode only
 * (server/http/demoMode.ts): the card processor's card and challenge pages, the bank's approval
 * page, the plan's first-instalment confirmation, and their card calls. Each page is served only
 * while its processor is the sandbox.
 */
import type { FastifyPluginAsync } from 'fastify';
import { registerCalls } from '../../http/calls.ts';
import type { AppDeps } from '../../http/deps.ts';
import { registerSandboxBank } from './bank.ts';
import { registerSandboxCard } from './card.ts';
import { sandboxCardHandlers } from './cards.ts';
import { registerPlanAuthentication } from './planAuthentication.ts';

export const sandbox: FastifyPluginAsync<{ deps: AppDeps }> = async (app, { deps }) => {
  registerCalls(app, sandboxCardHandlers(deps));
  registerSandboxCard(app, deps, deps.payment);
  registerSandboxBank(app, deps);
  registerPlanAuthentication(app, deps);
};
