import { lazy, Suspense } from 'react';
import { LOCAL_CAPTCHA_SITEKEY } from '../../../contract';
import { Alert } from '../../../ui/Alert';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Spinner } from '../../../ui/Spinner';
import { useCheckout } from '../../app/checkoutContext';
import { StepLayout } from '../StepLayout';
import type { CaptchaWidgetProps } from './widgetProps';
import { t } from '../../../i18n/runtime.ts';

// Each widget is its own chunk: a buyer downloads only the one the server asked for.
const AltchaWidget = lazy(() => import('./AltchaWidget'));
const HCaptchaWidget = lazy(() => import('./HCaptchaWidget'));

/** The captcha step: prove you are human, then 'Continue' reserves again with the token. */
export default function CaptchaStep() {
  const view = useCheckout();
  const { captcha } = view;
  const handlers: CaptchaWidgetProps = {
    onPassed: view.captchaPassed,
    onExpired: view.captchaExpired,
    onErrored: view.captchaErrored,
  };
  return (
    <StepLayout step="captcha">
      <div className="card stack">
        <p className="lead">{t('captcha.lead')}</p>
        <div className="captcha">
          <Suspense fallback={<Spinner />}>
            {captcha.sitekey === null || captcha.sitekey === LOCAL_CAPTCHA_SITEKEY ? (
              <AltchaWidget key={captcha.widgetKey} {...handlers} />
            ) : (
              <HCaptchaWidget key={captcha.widgetKey} {...handlers} sitekey={captcha.sitekey} />
            )}
          </Suspense>
        </div>
        {captcha.message ? (
          <Alert type={captcha.status === 'expired' ? 'warning' : 'error'}>{captcha.message}</Alert>
        ) : null}
        <LoadingButton
          loading={view.isReserving}
          disabled={!captcha.canContinue}
          className="button--block"
          onClick={view.captchaContinue}
        >
          {t('ui.continue')}
        </LoadingButton>
      </div>
    </StepLayout>
  );
}
