import type { Notice } from '../../contract/notice.ts';
import { Alert } from '../../ui/Alert';

/** The checkout's notifications: they stay until the buyer dismisses them. */
export function Toasts({ notices, onDismiss }: { notices: readonly Notice[]; onDismiss: (id: number) => void }) {
  return (
    <div className="toasts" aria-label="Notifications" role="region">
      {notices.map((n) => (
        <div key={n.id} className="toasts__item">
          <Alert type={n.kind} onDismiss={() => onDismiss(n.id)} dismissLabel="Dismiss notification">
            {n.text}
          </Alert>
        </div>
      ))}
    </div>
  );
}
