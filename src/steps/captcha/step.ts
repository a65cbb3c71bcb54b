import { lazy } from 'react';
import { stepModule } from '../stepModule';

/** The `captcha` step. */
export const captcha = stepModule({
  step: 'captcha',
  Screen: lazy(() => import('./CaptchaStep')),
});
