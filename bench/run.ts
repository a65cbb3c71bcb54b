/**
 * `npm run bench`: prints figures, gates nothing. Browser weight first, then server throughput,
 * then Lighthouse on the catalogue and the filled basket.
 */
import { benchBundle } from './bundle.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchServer } from './server-throughput.ts';

benchBundle();
await benchServer();
await benchLighthouse();
process.exit(0);
