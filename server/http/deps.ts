import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import type { Providers } from '../providers/index.ts';

/** What every route is built with: the database, the configuration, the clock and the outside services. */
export interface AppDeps extends Providers {
  db: Database;
  config: Config;
  clock: () => Date;
}
