/**
 * The reservation chart (the reserve and captcha steps) with the app's calls: reserve_tickets, the
 * checkout read afresh after it, the page's address copied for an in-app browser. In its own chunk,
 * loaded with the later steps' charts before the reserve step can start (the root's `preparing`).
 */
import { fromPromise } from 'xstate';
import type { QueryClient } from '@tanstack/react-query';
import { callApi } from '../../api/client';
import { checkoutQuery } from '../../api/queries';
import type { Checkout } from '../../../contract';
import type { ReserveReply } from '../../../machines/reservation/reservation.types.ts';
import { isInAppBrowserUserAgent } from '../../../machines/reservation/inAppBrowser';
import { reservationMachine } from '../../../machines/reservation/reservation.machine';

async function copyPageAddress(): Promise<void> {
  const address = window.location.href;
  if (navigator.clipboard?.writeText) {
    try {
      await navigator.clipboard.writeText(address);
      return;
    } catch {
      // Some in-app browsers expose the API but refuse it; the textarea route still works there.
    }
  }
  const textarea = document.createElement('textarea');
  textarea.value = address;
  textarea.setAttribute('readonly', '');
  textarea.style.position = 'fixed';
  textarea.style.opacity = '0';
  document.body.appendChild(textarea);
  textarea.select();
  const copied = document.execCommand('copy');
  textarea.remove();
  if (!copied) throw new Error('The link could not be copied');
}

export function appReservationMachine(queryClient: QueryClient, userAgent: string) {
  return reservationMachine.provide({
    actors: {
      reserveTickets: fromPromise<ReserveReply, { captchaToken?: string }>(({ input }) =>
        callApi('reserveTickets', input.captchaToken ? { 'h-captcha-response': input.captchaToken } : {}),
      ),
      // A reservation leads on to the later steps, whose charts are loaded with this one.
      loadCheckout: fromPromise<Checkout, void>(() => queryClient.fetchQuery({ ...checkoutQuery(), staleTime: 0 })),
      copyLink: fromPromise<void, void>(copyPageAddress),
    },
    guards: { isInAppBrowser: () => isInAppBrowserUserAgent(userAgent) },
  });
}
