/**
 * The pages' shared pieces, drawn from the same components as the checkout app (ui/): the header,
 * the footer, the icons and the first screen. Each is the same markup for the same arguments, so
 * it is drawn once and kept.
 */
import type { ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { activeLocale } from '../../i18n/runtime.ts';
import { DeterminingScreen } from '../../ui/DeterminingScreen.tsx';
import { Icon, type IconName } from '../../ui/Icon.tsx';
import { SiteFooter } from '../../ui/SiteFooter.tsx';
import { SiteHeader, type SiteSection } from '../../ui/SiteHeader.tsx';

const drawn = new Map<string, string>();

/** Drawn once per language: the key names the request's locale. */
function once(key: string, element: () => ReactElement): string {
  const id = `${activeLocale()} ${key}`;
  let markup = drawn.get(id);
  if (markup === undefined) {
    markup = renderToStaticMarkup(element());
    drawn.set(id, markup);
  }
  return markup;
}

export type { IconName, SiteSection };

/** `count`: what the basket holds (spec 001 §9), where the server knows it. */
export const headerHtml = (brand: string, current: SiteSection, secure: boolean, count = 0) =>
  once(`header ${brand} ${current} ${secure} ${count}`, () => (
    <SiteHeader brand={brand} current={current} secure={secure} count={count} />
  ));

export const footerHtml = (brand: string) => once(`footer ${brand}`, () => <SiteFooter brand={brand} />);

export const iconHtml = (name: IconName) => once(`icon ${name}`, () => <Icon name={name} />);

/** 'Determining checkout progress', the checkout's first screen until the app knows the step. */
export const determiningHtml = () => once('determining', () => <DeterminingScreen />);
