/** The seat page's chunk: loaded only on /events/book_seats/{event_date_id}/, so the checkout's entry carries none of it. */
import { StrictMode, useEffect } from 'react';
import type { Root } from 'react-dom/client';
import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { checkoutQuery } from '../api/queries';
import { basketCount, publishBasketCount } from '../app/basketCount';
import { Header } from '../app/Header';
import { Footer } from '../app/Footer';
import { createSeatSelectionMachine } from './seatActors';
import { SeatPage } from './SeatPage';
import './seats.css';
import { t } from '../../i18n/runtime';

/**
 * The header's basket count (spec 001 §9): the basket as the checkout reads it, announced as the
 * checkout announces it (every 10 ms until the page has loaded). Without it the header shows none.
 */
function BasketCount() {
  const { data } = useQuery({ ...checkoutQuery(), retry: false });
  useEffect(() => {
    if (data) publishBasketCount(basketCount(data));
  }, [data]);
  return null;
}

export function mountSeatPage(root: Root, queryClient: QueryClient, eventDateId: number): void {
  const machine = createSeatSelectionMachine({
    queryClient,
    eventDateId,
    navigate: (url) => window.location.assign(url),
  });
  document.title = t('seats.title');
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <a className="skip-link" href="#main">
          {t('site.skipToContent')}
        </a>
        <Header />
        <BasketCount />
        <main id="main" className="page seat-page-main">
          <SeatPage eventDateId={eventDateId} machine={machine} />
        </main>
        <Footer />
      </QueryClientProvider>
    </StrictMode>,
  );
}
