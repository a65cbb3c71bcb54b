import { t } from '../../../i18n/runtime.ts';

/** The Back link of each order-completed sub-view: back to the overview. */
export function BackLink({ onBack }: { onBack: () => void }) {
  return (
    <button type="button" className="link-button order-subview__back" onClick={onBack}>
      <svg
        className="icon"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="2"
        strokeLinecap="round"
        strokeLinejoin="round"
        aria-hidden="true"
        focusable="false"
      >
        <path d="m15 18-6-6 6-6" />
      </svg>
      {t('completed.back')}
    </button>
  );
}
