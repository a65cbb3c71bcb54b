/**
 * The wire contract for the browser, as far as it is needed: a call's description (its path,
 * method and schemas) is found in the contract's files, each its own chunk. The first screens'
 * calls (the checkout, the user, the basket, the reservation) are in the files searched first, so
 * the basket loads the schemas of its own calls and nothing of the later steps'; a later step's
 * call loads the rest (by then the buyer has reserved, and the app has loaded the later steps).
 *
 * Every file of `contract/` is a candidate (`import.meta.glob`), so a new file of calls needs no
 * entry here. A file's calls are the objects it exports under a name ending in `Calls`.
 */
import type { Call, CallName } from '../../contract';

type Slice = Record<string, unknown>;

/** The files whose calls the first screens make, searched first, in this order. */
const FIRST = ['primitives', 'checkout', 'user', 'basket', 'reservation'];

/** The shared helpers every screen has already (no calls) are left out. */
const files = import.meta.glob<Slice>([
  '../../contract/*.ts',
  '!../../contract/*.test.ts',
  '!../../contract/index.ts',
  '!../../contract/{steps,money,giftAidUplift,page,entryLoader,basketRules,errorReportLimits}.ts',
]);
const nameOf = (path: string) => path.replace(/^.*\/(\w+)\.ts$/, '$1');
const ORDER = Object.keys(files).sort((a, b) => rank(nameOf(a)) - rank(nameOf(b)) || a.localeCompare(b));

function rank(name: string): number {
  const i = FIRST.indexOf(name);
  return i === -1 ? FIRST.length : i;
}

const loaded = new Map<string, Promise<Slice>>();

/** A file of the contract, imported once (a failed import is tried again next time). */
function slice(path: string): Promise<Slice> {
  let mod = loaded.get(path);
  if (!mod) {
    mod = files[path]!();
    loaded.set(path, mod);
    mod.catch(() => loaded.delete(path));
  }
  return mod;
}

function callIn(mod: Slice, name: CallName): Call | undefined {
  for (const [exported, value] of Object.entries(mod)) {
    if (!exported.endsWith('Calls') || typeof value !== 'object' || value === null) continue;
    const found = (value as Record<string, Call | undefined>)[name];
    if (found) return found;
  }
  return undefined;
}

/**
 * The description of the call `name`. The first screens' files are asked for together (one round
 * trip on a slow network, not one per file); a call none of them has asks for all the others
 * together.
 */
export async function findCall(name: CallName): Promise<Call> {
  const first = ORDER.filter((path) => rank(nameOf(path)) < FIRST.length);
  const rest = ORDER.filter((path) => !first.includes(path));
  for (const group of [first, rest]) {
    for (const mod of await Promise.all(group.map(slice))) {
      const found = callIn(mod, name);
      if (found) return found;
    }
  }
  throw new Error(`No file of the contract describes the call ${name}`);
}

/** Every file of the contract, asked for together: the later steps' calls then find theirs at once. */
export async function loadWholeContract(): Promise<void> {
  await Promise.all(ORDER.map(slice));
}

/** The schema of an error reply (`{ error }`), from the contract's primitives. */
export async function errorReplySchema(): Promise<Call['response']> {
  const primitives = await slice(ORDER.find((path) => nameOf(path) === 'primitives')!);
  return primitives.errorReplySchema as Call['response'];
}

/** The contract's files loaded so far, by name (for tests and the bench). */
export function loadedSlices(): string[] {
  return [...loaded.keys()].map(nameOf).sort();
}
