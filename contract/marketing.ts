/** Keep updated (spec 000 §2 "Keep updated step", §7 set_marketing_preferences). */
import { z } from 'zod/mini';
import { call, done, formBool } from './primitives.ts';

const MAX_ORGANISERS = 50;
const organiserKey = z.string().check(z.regex(/^[1-9]\d{0,9}$/, 'must be an organiser id'));

export const marketingCalls = {
  setMarketingPreferences: call({
    method: 'POST',
    path: '/ajax/checkout/checkout/set_marketing_preferences/',
    encoding: 'form',
    request: z.object({
      /** The community newsletter. */
      ct_subscribed: formBool,
      /** Updates about the events in the basket ('Strongly Recommended'). */
      event_subscribed: formBool,
      /** Organiser id to whether the buyer accepts that organiser's marketing. */
      organiser_subscribed_marketing: z._default(
        z.record(organiserKey, formBool).check(
          z.refine((m: Record<string, boolean>) => Object.keys(m).length <= MAX_ORGANISERS, {
            message: `At most ${MAX_ORGANISERS} organisers`,
          }),
        ),
        {},
      ),
    }),
    response: done,
  }),
} as const;
