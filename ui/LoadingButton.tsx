import type { ButtonHTMLAttributes } from 'react';
import { Spinner } from './Spinner';

/** A button that disables itself and shows a spinner while its action is under way. */
export function LoadingButton({
  loading,
  disabled,
  children,
  className,
  type = 'button',
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { loading: boolean }) {
  return (
    <button
      {...rest}
      type={type}
      className={`button${className ? ` ${className}` : ''}`}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
    >
      {loading ? <Spinner size="small" /> : null}
      {children}
    </button>
  );
}
