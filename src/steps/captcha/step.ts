import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `captcha` step. */
export const captcha = stepModule({
  step: 'captcha',
  title: 'Checkout',
  Screen: lazy(() => import('./CaptchaStep')),
});
