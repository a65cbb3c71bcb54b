/**
 * The browser's side of the Stripe stand-in for the specs of the Stripe-keyed server: Stripe's
 * hosts (js.stripe.com, api.stripe.com) answered by e2e/fakeStripe.ts, and what it holds.
 */
import type { APIRequestContext, Page, Route } from '@playwright/test';
import { servers } from './servers.ts';

const FAKE_STRIPE = `http://127.0.0.1:${servers.fakeStripe}`;

/** Stripe's hosts, answered by the stand-in; the API calls the page makes are kept, in order. */
export async function routeStripe(page: Page): Promise<string[]> {
  const apiCalls: string[] = [];
  const forward = async (route: Route) => {
    const url = new URL(route.request().url());
    if (url.host === 'api.stripe.com') apiCalls.push(`${route.request().method()} ${url.pathname}`);
    const response = await route.fetch({ url: `${FAKE_STRIPE}${url.pathname}${url.search}` });
    await route.fulfill({ response });
  };
  await page.route('https://js.stripe.com/**', forward);
  await page.route('https://api.stripe.com/**', forward);
  return apiCalls;
}

/** What the stand-in holds (GET /__fake/state), as the spec reads it. */
export async function stripeState<State>(request: APIRequestContext): Promise<State> {
  return (await request.get(`${FAKE_STRIPE}/__fake/state`)).json() as Promise<State>;
}
