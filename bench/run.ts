/**
 * `npm run bench`: prints figures, gates nothing. Browser weight first, then server throughput.
 */
import { benchBundle } from './bundle.ts';
import { benchServer } from './server-throughput.ts';

benchBundle();
await benchServer();
process.exit(0);
