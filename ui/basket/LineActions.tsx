import { Icon } from '../Icon';
import { QuantityStepper } from '../QuantityStepper';
import { rich } from '../rich';

/** A basket line's quantity and its remove button, both held while the basket is being updated. */
export function LineActions({
  name,
  qty,
  readOnly,
  updating,
  reportWhileTyping = true,
  onQuantity,
  onRemove,
}: {
  name: string;
  qty: number;
  readOnly: boolean;
  updating: boolean;
  reportWhileTyping?: boolean;
  onQuantity: (qty: number) => void;
  onRemove: () => void;
}) {
  return (
    <div className="line__actions">
      <QuantityStepper
        value={qty}
        label={name}
        readOnly={readOnly}
        disabled={updating}
        onChange={onQuantity}
        reportWhileTyping={reportWhileTyping}
      />
      {/* Held with aria-disabled rather than disabled, so keyboard focus stays on it while the basket updates. */}
      <button
        type="button"
        className="link-button line__remove"
        aria-disabled={updating || undefined}
        onClick={() => {
          if (!updating) onRemove();
        }}
      >
        <Icon name="trash" />
        {rich('basket.remove', { name }, { hidden: (text) => <span className="visually-hidden">{text}</span> })}
      </button>
    </div>
  );
}
