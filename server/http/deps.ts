import { WALLET_PATH } from '../../contract/index.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { JobDeps } from '../domain/instalments/job.ts';
import type { Providers } from '../providers/index.ts';

/** What every route is built with: the database, the configuration, the clock and the outside services. */
export interface AppDeps extends Providers {
  db: Database;
  config: Config;
  clock: () => Date;
}

/** The wallet's address in e-mails: on the site's own address (PUBLIC_URL), never the one a request's Host header names. */
export const walletUrlOf = (config: Pick<Config, 'publicUrl'>) => `${config.publicUrl}${WALLET_PATH}`;

/** What the instalment job runs with, whether on its timer or from the development route. */
export function instalmentJobDeps(deps: AppDeps): JobDeps {
  return {
    db: deps.db,
    cards: deps.plans.cards,
    mail: { mailer: deps.mailer, brandName: deps.config.brandName, publicUrl: deps.config.publicUrl },
    walletUrl: walletUrlOf(deps.config),
    sms: deps.sms,
  };
}
