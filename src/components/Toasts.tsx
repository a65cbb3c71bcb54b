import { useEffect, useEffectEvent } from 'react';
import { Alert, type AlertType } from '../../ui/Alert';
import { t } from '../../i18n/runtime.ts';

/** How long a notification stays by default (spec 001 §9), in milliseconds. */
export const NOTIFICATION_TIMEOUT_MS = 3000;
/** A timeout of -1 keeps a notification until the buyer dismisses it: the checkout's own (spec 001 §9). */
export const PERSISTENT = -1;

export interface Toast {
  id: number;
  kind: AlertType;
  text: string;
}

/**
 * Notifications. Each goes by itself after `timeout` milliseconds (3000 unless a host says
 * otherwise), or stays until dismissed when the host passes -1, as the checkout does.
 */
export function Toasts({
  notices,
  onDismiss,
  timeout = NOTIFICATION_TIMEOUT_MS,
}: {
  notices: readonly Toast[];
  onDismiss: (id: number) => void;
  timeout?: number;
}) {
  return (
    <div className="toasts" aria-label={t('ui.notifications')} role="region">
      {notices.map((n) => (
        <div key={n.id} className="toasts__item">
          <TimedAlert notice={n} timeout={timeout} onDismiss={onDismiss} />
        </div>
      ))}
    </div>
  );
}

function TimedAlert({
  notice,
  timeout,
  onDismiss,
}: {
  notice: Toast;
  timeout: number;
  onDismiss: (id: number) => void;
}) {
  const { id } = notice;
  // The host's handler may be a new function on every render; the clock starts once per notice.
  const dismiss = useEffectEvent(() => onDismiss(id));
  useEffect(() => {
    if (timeout < 0) return undefined;
    const timer = window.setTimeout(() => dismiss(), timeout);
    return () => window.clearTimeout(timer);
  }, [id, timeout]);
  return (
    <Alert type={notice.kind} onDismiss={() => onDismiss(id)} dismissLabel={t('ui.dismissNotification')}>
      {notice.text}
    </Alert>
  );
}
