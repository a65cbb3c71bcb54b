/**
 * The development routes, served in demo mode only (server/http/demoMode.ts): the mailbox, which
 * shows anyone every one-time code; the instalment job run; the machines for the Stately editor; and, with DEV_CLOCK=1, the clock that
 * moves forward.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppDeps } from '../../http/deps.ts';
import { registerAnalyticsStandIn } from './analytics.ts';
import { registerDevClock, type MovableClock } from './clock.ts';
import { registerInstalmentRun } from './instalments.ts';
import { registerMailbox } from './mailbox.ts';
import { registerStatecharts } from './statecharts.ts';

export const dev: FastifyPluginAsync<{ deps: AppDeps; movableClock?: MovableClock }> = async (
  app,
  { deps, movableClock },
) => {
  registerMailbox(app, deps);
  registerAnalyticsStandIn(app, deps);
  registerInstalmentRun(app, deps);
  registerStatecharts(app, deps);
  if (deps.config.devClock && movableClock) registerDevClock(app, movableClock);
};
