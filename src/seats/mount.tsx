/** The seat page's chunk: loaded only on /events/book_seats/{event_date_id}/, so the checkout's entry carries none of it. */
import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { Header } from '../app/Header';
import { Footer } from '../app/Footer';
import { createSeatSelectionMachine } from './seatActors';
import { SeatPage } from './SeatPage';
import './seats.css';

export function mountSeatPage(root: Root, queryClient: QueryClient, eventDateId: number): void {
  const machine = createSeatSelectionMachine({ queryClient, eventDateId, navigate: (url) => window.location.assign(url) });
  document.title = 'Choose your seats';
  root.render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <Header />
        <main id="main" className="page seat-page-main">
          <SeatPage eventDateId={eventDateId} machine={machine} />
        </main>
        <Footer />
      </QueryClientProvider>
    </StrictMode>,
  );
}
