/**
 * The seat-selection page's entry (/events/book_seats/{event_date_id}/): the same React app's
 * header, footer, client and design, in its own chunk, so the checkout's entry carries none of it.
 */
import '../design';
import { createRoot } from 'react-dom/client';
import { QueryClient } from '@tanstack/react-query';
import { startInspector } from '../inspector';
import { mountSeatPage } from './mount';

const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: false, retry: false, staleTime: 5_000 } },
});
const eventDateId = Number(/^\/events\/book_seats\/([1-9]\d{0,9})\/$/.exec(window.location.pathname)?.[1] ?? 0);

// `?inspect` in development or demo mode shows the seat page's machine in the Stately inspector.
void startInspector().then(() => mountSeatPage(createRoot(document.getElementById('root')!), queryClient, eventDateId));
