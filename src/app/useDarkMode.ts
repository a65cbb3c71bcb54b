import { useEffect } from 'react';
import type { User } from '../../contract';

/** Organisers who chose dark mode get it on the checkout too (a style on the page body). */
export function useDarkMode(user: User | null) {
  const dark = user !== null && user.is_dark_mode && user.view_type === 'organiser';
  useEffect(() => {
    document.body.classList.toggle('dark', dark);
  }, [dark]);
}
