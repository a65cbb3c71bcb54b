/**
 * hCaptcha, used only when the server is configured with an hCaptcha site key. Its script comes
 * from hCaptcha when this chunk mounts; error reporting to Sentry stays off.
 */
import HCaptcha from '@hcaptcha/react-hcaptcha';
import type { CaptchaWidgetProps } from './widgetProps';

/** hCaptcha's own words in the page's language (`<html lang>`; hCaptcha knows Welsh). */
const intlLanguage = () => (document.documentElement.lang || 'en').split('-')[0];

export default function HCaptchaWidget({
  sitekey,
  onPassed,
  onExpired,
  onErrored,
}: CaptchaWidgetProps & { sitekey: string }) {
  return (
    <HCaptcha
      sitekey={sitekey}
      sentry={false}
      languageOverride={intlLanguage()}
      onVerify={(token) => onPassed(token)}
      onExpire={onExpired}
      onChalExpired={onExpired}
      onError={(message) => onErrored(String(message))}
    />
  );
}
