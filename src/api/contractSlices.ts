/**
 * The wire contract for the browser, evaluated one file per task. Building all of its schemas at
 * once held a phone's main thread for about 180 ms (4× CPU slowdown); each file alone is a short
 * task, and a tap between two of them is answered at once. Each file is its own chunk, so
 * importing one evaluates only it (and what it imports that is not yet evaluated); the first import
 * preloads them all (vite.config.ts), so they download together and none waits a round trip.
 */
const slices = [
  () => import('../../contract/primitives'),
  () => import('../../contract/checkout'),
  () => import('../../contract/user'),
  () => import('../../contract/basket'),
  () => import('../../contract/reservation'),
  () => import('../../contract/account'),
  () => import('../../contract/marketing'),
  () => import('../../contract/donation'),
  () => import('../../contract/delivery'),
  () => import('../../contract/transfers'),
  () => import('../../contract/payment'),
  () => import('../../contract/instalment'),
  () => import('../../contract/square'),
  () => import('../../contract/address'),
  () => import('../../contract/questions'),
  () => import('../../contract/bankTransfer'),
  () => import('../../contract/seats'),
  () => import('../../contract/afterSale'),
  () => import('../../contract/waiver'),
];

/** Gives the main thread back to the browser (input, paint) before the next file. */
const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

export async function loadContract(): Promise<typeof import('../../contract')> {
  for (const slice of slices) {
    await slice();
    await nextTask();
  }
  return import('../../contract');
}
