/**
 * seats.io's REST API, for plans whose provider is seats.io (used only when SEATSIO_SECRET_KEY is
 * set): hold tokens, and holding, releasing and booking objects under one. Requests are built apart
 * from sending them, so tests check them against the shapes seats.io documents without a network.
 *
 *   POST https://api-{region}.seatsio.net/hold-tokens                    → { holdToken, expiresAt, expiresInSeconds }
 *   POST https://api-{region}.seatsio.net/events/{eventKey}/actions/hold     { objects, holdToken } → 204
 *   POST https://api-{region}.seatsio.net/events/{eventKey}/actions/release  { objects, holdToken } → 204
 *   POST https://api-{region}.seatsio.net/events/{eventKey}/actions/book     { objects, holdToken } → 200
 *
 * Authentication is HTTP Basic with the workspace secret key as the user name and no password.
 */
import { z } from 'zod/mini';
import { Refusal } from '../refusal.ts';

export interface SeatsioSettings {
  secretKey: string;
  /** 'eu', 'na', 'sa' or 'oc'. */
  region: string;
}

export interface SeatsioRequest {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** A seat's label on a seats.io chart: section, row and number joined by hyphens. */
export function seatsioLabel(seat: { section: string; row: string; number: string }): string {
  return `${seat.section}-${seat.row}-${seat.number}`;
}

export function seatsioRequests(settings: SeatsioSettings) {
  const base = `https://api-${settings.region}.seatsio.net`;
  const headers = {
    authorization: `Basic ${Buffer.from(`${settings.secretKey}:`).toString('base64')}`,
    'content-type': 'application/json',
    accept: 'application/json',
  };
  const action = (eventKey: string, verb: 'hold' | 'release' | 'book', objects: string[], holdToken: string): SeatsioRequest => ({
    method: 'POST',
    url: `${base}/events/${encodeURIComponent(eventKey)}/actions/${verb}`,
    headers,
    body: JSON.stringify({ objects, holdToken }),
  });
  return {
    createHoldToken: (): SeatsioRequest => ({ method: 'POST', url: `${base}/hold-tokens`, headers, body: '{}' }),
    hold: (eventKey: string, objects: string[], holdToken: string) => action(eventKey, 'hold', objects, holdToken),
    release: (eventKey: string, objects: string[], holdToken: string) => action(eventKey, 'release', objects, holdToken),
    book: (eventKey: string, objects: string[], holdToken: string) => action(eventKey, 'book', objects, holdToken),
  };
}

const holdTokenReply = z.object({ holdToken: z.string(), expiresAt: z.string(), expiresInSeconds: z.number() });
const errorReply = z.object({ messages: z.optional(z.array(z.string())), errors: z.optional(z.array(z.object({ code: z.optional(z.string()), message: z.string() }))) });

export const SEATSIO_UNAVAILABLE = 'The seating plan could not be reached. Please try again.';

/** The client: sends the requests above with an injected fetch, and reads seats.io's replies. */
export function seatsioClient(settings: SeatsioSettings, fetchImpl: typeof fetch = fetch) {
  const requests = seatsioRequests(settings);
  async function send(request: SeatsioRequest): Promise<unknown> {
    let response: Response;
    try {
      response = await fetchImpl(request.url, { method: request.method, headers: request.headers, body: request.body });
    } catch {
      throw new Refusal('try-again', SEATSIO_UNAVAILABLE);
    }
    const text = await response.text();
    const json: unknown = text ? JSON.parse(text) : null;
    if (!response.ok) {
      // seats.io refuses a seat another buyer holds or booked by naming the objects: told to the buyer as it is.
      const parsed = errorReply.safeParse(json);
      const message = parsed.success ? (parsed.data.errors?.[0]?.message ?? parsed.data.messages?.[0]) : undefined;
      throw message ? new Refusal('sold-out', message) : new Refusal('try-again', SEATSIO_UNAVAILABLE);
    }
    return json;
  }
  return {
    async createHoldToken() {
      return holdTokenReply.parse(await send(requests.createHoldToken()));
    },
    async hold(eventKey: string, objects: string[], holdToken: string) {
      await send(requests.hold(eventKey, objects, holdToken));
    },
    async release(eventKey: string, objects: string[], holdToken: string) {
      await send(requests.release(eventKey, objects, holdToken));
    },
    async book(eventKey: string, objects: string[], holdToken: string) {
      await send(requests.book(eventKey, objects, holdToken));
    },
  };
}
