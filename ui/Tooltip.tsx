import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { Icon } from './Icon';

/** Room kept between a tooltip and the edge of the screen, in px. */
const EDGE = 8;

/**
 * A tooltip (spec 000 §9, generic interface pieces): a small info button whose note is its
 * accessible description (`aria-describedby` onto a `role=tooltip` element), so a screen reader
 * reads the note with the button whether or not it shows.
 *
 * It shows while the pointer rests on the button or the note (so the note itself can be hovered,
 * WCAG 1.4.13) and while the button has keyboard focus; a tap on a touch screen opens it and a
 * second tap closes it; Escape, or a tap elsewhere, closes it. It stays on screen, nudged
 * sideways where it would cross the edge of a phone's screen.
 */
export function Tooltip({ label, children, className }: { label: string; children: ReactNode; className?: string }) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLSpanElement>(null);
  const bubble = useRef<HTMLSpanElement>(null);
  const focused = useRef(false);
  /** Whether the note showed when the press began: a tap toggles from there. */
  const openAtPress = useRef(false);

  useEffect(() => {
    if (!open) return undefined;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') setOpen(false);
    };
    const onPointerDown = (e: PointerEvent) => {
      if (!wrapper.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('keydown', onKey);
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      document.removeEventListener('keydown', onKey);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open]);

  // Kept inside the screen: the shift is a custom property, so no style attribute is ever rendered.
  useLayoutEffect(() => {
    const el = bubble.current;
    if (!open || !el) return undefined;
    const place = () => {
      el.style.setProperty('--tooltip-shift', '0px');
      const box = el.getBoundingClientRect();
      const width = document.documentElement.clientWidth;
      const shift = box.left < EDGE ? EDGE - box.left : box.right > width - EDGE ? width - EDGE - box.right : 0;
      el.style.setProperty('--tooltip-shift', `${Math.round(shift)}px`);
    };
    place();
    window.addEventListener('resize', place);
    return () => window.removeEventListener('resize', place);
  }, [open]);

  return (
    <span
      ref={wrapper}
      className={`tooltip${className ? ` ${className}` : ''}`}
      onPointerEnter={(e) => {
        if (e.pointerType === 'mouse') setOpen(true);
      }}
      onPointerLeave={(e) => {
        if (e.pointerType === 'mouse' && !focused.current) setOpen(false);
      }}
    >
      <button
        type="button"
        className="tooltip__trigger"
        aria-describedby={id}
        onPointerDown={() => {
          openAtPress.current = open;
        }}
        onFocus={() => {
          focused.current = true;
          setOpen(true);
        }}
        onBlur={() => {
          focused.current = false;
          setOpen(false);
        }}
        onClick={(e) => {
          // A mouse that clicks is already showing the note; a tap toggles it; Enter or Space toggles it.
          if (e.nativeEvent instanceof PointerEvent && e.nativeEvent.pointerType === 'mouse') setOpen(true);
          else if (e.detail > 0) setOpen(!openAtPress.current);
          else setOpen((was) => !was);
        }}
      >
        <Icon name="info" />
        <span className="visually-hidden">{label}</span>
      </button>
      <span ref={bubble} role="tooltip" id={id} className="tooltip__bubble" hidden={!open}>
        {children}
      </span>
    </span>
  );
}
