import { t } from '../i18n/runtime.ts';

/** What the site header's basket count says to a screen reader: '1 item', '3 items'. */
export function itemCount(n: number): string {
  return t('site.itemCount', { count: n });
}
