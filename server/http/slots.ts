/**
 * At most `size` of a kind of work at once in this process; the rest wait their turn, first come
 * first served. Reservations go through one: an on-sale's reservations all claim one pool's row,
 * which takes them one at a time whatever the number of connections, and each extra one waiting
 * in the database costs it a sleep and a wake. Waiting here costs nothing, and the rest of the
 * pool's connections stay free for the other calls.
 */
export function slots(size: number) {
  let busy = 0;
  const waiting: Array<() => void> = [];
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else busy -= 1;
  };
  return {
    async run<T>(work: () => Promise<T>): Promise<T> {
      if (busy < size) busy += 1;
      else await new Promise<void>((resolve) => waiting.push(resolve));
      try {
        return await work();
      } finally {
        release();
      }
    },
    /** How many are running and how many wait. */
    get load() {
      return { busy, waiting: waiting.length };
    },
  };
}
