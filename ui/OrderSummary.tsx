import type { ReactNode } from 'react';
import type { Checkout } from '../contract';
import { orderSummary } from './summary';
import { formatMoney } from '../contract/money';
import { bookingFeeNote } from './notes';
import { Tooltip } from './Tooltip';
import { t } from '../i18n/runtime.ts';
import { rich } from './rich';

function Row({
  label,
  children,
  className,
  testId,
}: {
  label: ReactNode;
  children: ReactNode;
  className?: string;
  testId?: string;
}) {
  return (
    <div className={`summary__row${className ? ` ${className}` : ''}`}>
      <dt>{label}</dt>
      <dd data-testid={testId}>{children}</dd>
    </div>
  );
}

/**
 * The order summary figures (spec 001 §9): subtotal, shipping, booking fees, discounts, offers,
 * gift voucher, refund protection, donation, donation fee, charity, Gift Aid and total.
 */
export function OrderSummary({ checkout, headingLevel = 2 }: { checkout: Checkout; headingLevel?: 2 | 3 }) {
  const s = orderSummary(checkout);
  const money = (minor: number) => formatMoney(minor, s.currencyCode);
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  return (
    <section className="summary" aria-labelledby="order-summary-title">
      <Heading id="order-summary-title" className="summary__title">
        {t('summary.title')}
      </Heading>
      <dl className="summary__rows">
        <Row label={t('summary.subtotal')}>{money(s.subtotal)}</Row>
        {s.shipping > 0 ? <Row label={t('summary.shipping')}>{money(s.shipping)}</Row> : null}
        {s.bookingFees !== 0 ? (
          <Row
            label={
              <>
                {t('summary.bookingFees')}{' '}
                <span className="summary__notes">
                  <a href="/legal-information/purchase-terms-and-conditions/" className="summary__note">
                    {t('summary.nonRefundable')}
                  </a>{' '}
                  <Tooltip label={t('summary.aboutBookingFees')}>{bookingFeeNote()}</Tooltip>
                </span>
              </>
            }
            className={s.bookingFeesAbsorbed ? 'summary__row--muted' : undefined}
          >
            {s.bookingFeesAbsorbed ? `(${money(s.bookingFees)})` : `+ ${money(s.bookingFees)}`}
          </Row>
        ) : null}
        {s.discounts.map((d) => (
          <Row
            key={d.code}
            label={
              <>
                {rich(
                  'summary.discount',
                  { code: d.code },
                  { chip: (code) => <span className="code-chip">{code}</span> },
                )}
              </>
            }
            className="summary__row--saving"
          >
            − {money(d.amount)}
          </Row>
        ))}
        {s.offers > 0 ? (
          <Row label={t('summary.offers')} className="summary__row--saving">
            − {money(s.offers)}
          </Row>
        ) : null}
        {s.giftVoucher > 0 ? (
          <Row label={t('summary.giftVoucher')} className="summary__row--saving">
            − {money(s.giftVoucher)}
          </Row>
        ) : null}
        {s.refundProtection !== null ? (
          <Row label={t('summary.refundProtection')}>+ {money(s.refundProtection)}</Row>
        ) : null}
        {s.donation !== null ? (
          <Row label={s.charityName ? t('summary.donationTo', { charity: s.charityName }) : t('summary.donation')}>
            + {money(s.donation)}
          </Row>
        ) : null}
        {s.donationFee !== null ? <Row label={t('summary.donationFee')}>+ {money(s.donationFee)}</Row> : null}
        {s.giftAid !== null ? (
          <Row label={t('summary.giftAid')} className="summary__row--muted">
            {money(s.giftAid)}
          </Row>
        ) : null}
        <Row label={t('summary.total')} className="summary__row--total" testId="summary-total">
          {money(s.total)}
        </Row>
      </dl>
    </section>
  );
}
