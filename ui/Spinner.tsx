/** A spinning ring. Decorative: the text beside it (or `label`) says what is happening. */
export function Spinner({ size = 'medium', label }: { size?: 'small' | 'medium' | 'large'; label?: string }) {
  return (
    <span className={`spinner spinner--${size}`} role={label ? 'status' : undefined}>
      <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
        <circle cx="12" cy="12" r="10" fill="none" strokeWidth="3" className="spinner__track" />
        <path d="M12 2a10 10 0 0 1 10 10" fill="none" strokeWidth="3" strokeLinecap="round" className="spinner__arc" />
      </svg>
      {label ? <span className="visually-hidden">{label}</span> : null}
    </span>
  );
}
