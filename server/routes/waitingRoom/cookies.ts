/**
 * A buyer's place in a queue and admission to its date, as signed cookies bound to the session they
 * were given to: read by the queue's routes and by the doors behind it (./gates.ts), set by the
 * queue's routes, and signed again for the new session when signing in or out replaces it.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config.ts';
import { ensureSessionBinding, sessionBindingOf } from '../../http/session.ts';
import { admissionCookie, placeCookie, signer, type Admission, type Place } from '../../domain/waitingRoom/tokens.ts';

export type QueueCookies = ReturnType<typeof queueCookies>;

export function queueCookies(config: Pick<Config, 'sessionSecret'>, clock: () => Date) {
  const sign = signer(config.sessionSecret);
  const nowSeconds = () => Math.floor(clock().getTime() / 1000);

  function setCookie(request: FastifyRequest, reply: FastifyReply, name: string, value: string, maxAge: number) {
    reply.setCookie(name, value, {
      httpOnly: true,
      sameSite: 'lax',
      secure: request.protocol === 'https',
      path: '/',
      maxAge: Math.max(1, maxAge),
    });
  }

  return {
    sign,
    nowSeconds,
    placeOf: (request: FastifyRequest, dateId: number): Place | null =>
      sign.readPlace(request.cookies[placeCookie(dateId)], dateId, sessionBindingOf(request), nowSeconds()),
    admissionOf: (request: FastifyRequest, dateId: number): Admission | null =>
      sign.readAdmission(request.cookies[admissionCookie(dateId)], dateId, sessionBindingOf(request), nowSeconds()),
    setPlace(
      request: FastifyRequest,
      reply: FastifyReply,
      place: Place,
      binding = ensureSessionBinding(request, reply),
    ) {
      setCookie(request, reply, placeCookie(place.dateId), sign.place(place, binding), place.expiresAt - nowSeconds());
    },
    setAdmission(
      request: FastifyRequest,
      reply: FastifyReply,
      admission: Admission,
      binding = ensureSessionBinding(request, reply),
    ) {
      setCookie(
        request,
        reply,
        admissionCookie(admission.dateId),
        sign.admission(admission, binding),
        admission.expiresAt - nowSeconds(),
      );
    },
  };
}
