import { t, type MessageKey } from './runtime.ts';

/**
 * A set of messages read by name, each looked up in the active catalogue when it is read (not
 * when the module loads), so code that names `MESSAGES.checkoutExpired` gets the buyer's language.
 */
export function messages<const T extends Record<string, MessageKey>>(keys: T): { readonly [K in keyof T]: string } {
  const out = {} as { [K in keyof T]: string };
  for (const name of Object.keys(keys) as (keyof T)[]) {
    Object.defineProperty(out, name, { enumerable: true, get: () => t(keys[name] as MessageKey) });
  }
  return out;
}
