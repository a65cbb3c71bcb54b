/** The signed-in buyer. */
import { z } from 'zod/mini';
import { call, empty, id } from './primitives.ts';

export const userSchema = z.object({
  id: id,
  email: z.string(),
  is_dark_mode: z.boolean(),
  subscribed: z.boolean(),
  is_event_subscribed: z.boolean(),
  full_name: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  /** 'organiser' is the default view type. */
  view_type: z.enum(['organiser', 'customer']),
});
export type User = z.infer<typeof userSchema>;

export const userCalls = {
  getUser: call({
    method: 'GET',
    path: '/ajax/user/user/get_user/',
    encoding: 'none',
    request: empty,
    response: z.object({ user: z.nullable(userSchema) }),
  }),
} as const;

export { INITIAL_DATA_ID } from './page.ts';
