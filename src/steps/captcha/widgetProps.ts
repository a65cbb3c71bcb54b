/** What every captcha widget reports back to the captcha step. */
export interface CaptchaWidgetProps {
  onPassed: (token: string) => void;
  onExpired: () => void;
  onErrored: (message: string) => void;
}
