import type { GiftVoucherLine } from '../../contract';
import { formatMoney } from '../../contract/money';
import { LineActions } from './LineActions';
import { Thumbnail } from './Thumbnail';
import { t } from '../../i18n/runtime.ts';
import { rich } from '../rich';

/** A gift voucher in the basket: a product with a value, sold by an organiser. */
export function GiftVoucherLineItem({
  line,
  currencyCode,
  updating,
  onQuantity,
  onRemove,
}: {
  line: GiftVoucherLine;
  currencyCode: string;
  updating: boolean;
  onQuantity: (qty: number) => void;
  onRemove: () => void;
}) {
  return (
    <li className="line" tabIndex={-1}>
      <Thumbnail src={line.thumbnail} fallback="gift" />
      <div className="line__main">
        <p className="line__event">{line.name}</p>
        <p className="line__name">
          {rich('basket.voucherFrom', { name: line.o_name }, { a: (name) => <a href={line.o_url}>{name}</a> })}
        </p>
        <p className="line__meta">{t('basket.voucherExpires', { date: line.uk_expiry_date })}</p>
        <p className="line__price">
          <strong>{formatMoney(line.value, currencyCode)}</strong>
        </p>
      </div>
      <LineActions
        name={line.name}
        qty={line.qty}
        readOnly={false}
        updating={updating}
        reportWhileTyping={false}
        onQuantity={onQuantity}
        onRemove={onRemove}
      />
    </li>
  );
}
