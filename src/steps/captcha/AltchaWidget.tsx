/**
 * The self-hosted proof-of-work captcha (ALTCHA). The challenge comes from our own server, the
 * work is done in the browser, and nothing is fetched from anywhere else: no footer link, no
 * interaction collector, no server-side verification service.
 */
import 'altcha';
import type {} from 'altcha/types/react';
import { useEffect, useEffectEvent, useRef } from 'react';
import { appCalls as calls } from '../../../contract';
import type { CaptchaWidgetProps } from './widgetProps';

const CONFIGURATION = JSON.stringify({
  hideFooter: true,
  hideLogo: true,
  humanInteractionSignature: false,
  credentials: 'same-origin',
});

interface AltchaStateDetail {
  state: 'verified' | 'verifying' | 'unverified' | 'expired' | 'error' | 'code';
  payload?: string | null;
}

/** ALTCHA's state event does not carry the error text; its own English label is what it shows. */
function widgetErrorText(): string {
  const strings = (globalThis as { $altcha?: { i18n: { get: (lang: string) => Record<string, string> | undefined } } })
    .$altcha?.i18n.get('en');
  return strings?.error ?? 'Verification failed. Try again later.';
}

export default function AltchaWidget({ onPassed, onExpired, onErrored }: CaptchaWidgetProps) {
  const ref = useRef<HTMLElement>(null);
  // The widget's events reach the latest handlers without remounting it.
  const passed = useEffectEvent(onPassed);
  const expired = useEffectEvent(onExpired);
  const errored = useEffectEvent(onErrored);

  // Mounting a third-party widget: listen to its DOM events and forward them to the machine.
  useEffect(() => {
    const widget = ref.current;
    if (!widget) return;
    const onStateChange = (event: Event) => {
      const detail = (event as CustomEvent<AltchaStateDetail>).detail;
      if (detail.state === 'verified' && detail.payload) passed(detail.payload);
      else if (detail.state === 'expired') expired();
      else if (detail.state === 'error') errored(widgetErrorText());
    };
    widget.addEventListener('statechange', onStateChange);
    return () => widget.removeEventListener('statechange', onStateChange);
  }, []);

  return (
    <altcha-widget
      ref={ref}
      challenge={calls.getCaptchaChallenge.path}
      name="h-captcha-response"
      configuration={CONFIGURATION}
      style={{ '--altcha-max-width': '100%' }}
    />
  );
}
