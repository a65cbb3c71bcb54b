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
import { t } from '../../../i18n/runtime.ts';

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

interface AltchaRegistry {
  i18n: {
    get: (lang: string) => Record<string, string> | undefined;
    set: (lang: string, strings: Record<string, string>) => void;
  };
}

/**
 * ALTCHA's words in the buyer's language: its English strings, with those a buyer sees or hears
 * taken from the catalogue, registered under the page's language (`<html lang>`), which the
 * widget is told to use.
 */
function registerStrings(): string {
  const registry = (globalThis as { $altcha?: AltchaRegistry }).$altcha;
  const language = document.documentElement.lang || 'en-GB';
  registry?.i18n.set(language, {
    ...registry.i18n.get('en'),
    label: t('captcha.label'),
    verifying: t('captcha.verifying'),
    verified: t('captcha.verified'),
    verify: t('captcha.verify'),
    error: t('captcha.error'),
    expired: t('captcha.expired'),
    verificationRequired: t('captcha.required'),
    waitAlert: t('captcha.wait'),
    loading: t('ui.loading'),
  });
  return language;
}
const LANGUAGE = registerStrings();

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
      else if (detail.state === 'error') errored(t('captcha.error'));
    };
    widget.addEventListener('statechange', onStateChange);
    return () => widget.removeEventListener('statechange', onStateChange);
  }, []);

  return (
    <altcha-widget
      ref={ref}
      challenge={calls.getCaptchaChallenge.path}
      name="h-captcha-response"
      language={LANGUAGE}
      configuration={CONFIGURATION}
      style={{ '--altcha-max-width': '100%' }}
    />
  );
}
