import type { ReactNode } from 'react';
import { Icon } from './Icon';
import { t } from '../i18n/runtime.ts';

export type AlertType = 'error' | 'warning' | 'success' | 'info';

const ICONS = { error: 'error', warning: 'warning', success: 'check', info: 'info' } as const;

/**
 * A message box with a type. Errors and warnings interrupt a screen reader (role=alert); success
 * and information notes wait their turn (role=status).
 */
export function Alert({
  type,
  children,
  onDismiss,
  dismissLabel = t('ui.dismiss'),
}: {
  type: AlertType;
  children: ReactNode;
  onDismiss?: () => void;
  dismissLabel?: string;
}) {
  return (
    <div className={`alert alert--${type}`} role={type === 'error' || type === 'warning' ? 'alert' : 'status'}>
      <Icon name={ICONS[type]} className="alert__icon" />
      <div className="alert__body">{children}</div>
      {onDismiss ? (
        <button type="button" className="icon-button alert__dismiss" onClick={onDismiss} aria-label={dismissLabel}>
          <Icon name="close" />
        </button>
      ) : null}
    </div>
  );
}
