import { useEffect, useId, useRef, type ReactNode } from 'react';
import { Icon } from './Icon';
import { t } from '../i18n/runtime.ts';

/**
 * A modal dialog with a title, a body and a button area, built on <dialog> so focus trapping,
 * Escape and the backdrop come from the browser. `wide` doubles the width on large screens.
 */
export function Modal({
  open,
  title,
  onClose,
  buttons,
  wide = false,
  children,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  buttons?: ReactNode;
  wide?: boolean;
  children: ReactNode;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className={`modal${wide ? ' modal--wide' : ''}`}
      aria-labelledby={titleId}
      onClose={onClose}
      onClick={(e) => {
        // A click on the backdrop lands on the dialog element itself.
        if (e.target === e.currentTarget) onClose();
      }}
    >
      {open ? (
        <div className="modal__inner">
          <header className="modal__header">
            <h2 id={titleId} className="modal__title">
              {title}
            </h2>
            <button type="button" className="icon-button" onClick={onClose} aria-label={t('ui.close')}>
              <Icon name="close" />
            </button>
          </header>
          <div className="modal__body">{children}</div>
          {buttons ? <footer className="modal__buttons">{buttons}</footer> : null}
        </div>
      ) : null}
    </dialog>
  );
}
