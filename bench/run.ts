/**
 * `npm run bench`: prints figures, gates nothing. Browser weight first (which builds the app), the
 * 5,000-seat map, then server throughput, then Lighthouse on the catalogue and the filled basket.
 */
import { benchBundle } from './bundle.ts';
import { benchLighthouse } from './lighthouse.ts';
import { benchServer } from './server-throughput.ts';
import { benchSeatMap } from './seatMap.ts';

benchBundle();
await benchSeatMap();
await benchServer();
await benchLighthouse();
process.exit(0);
