/**
 * The analytics cookie question, asked only when the basket's organisers have analytics and the
 * buyer has not answered yet. Nothing of Google's or Meta's loads before 'Accept analytics cookies'.
 */
import { useState } from 'react';
import { readConsent, saveConsent } from './consent';
import './consent.css';

export default function ConsentBanner() {
  const [answered, setAnswered] = useState(() => readConsent() !== null);
  if (answered) return null;
  const answer = (consent: 'granted' | 'denied') => {
    saveConsent(consent);
    setAnswered(true);
  };
  return (
    <section className="consent" aria-labelledby="consent-title">
      <div className="consent__inner">
        <h2 id="consent-title" className="consent__title">
          Analytics cookies
        </h2>
        <p className="consent__text">
          The organisers of the events in your basket would like to measure how their pages are found and used, with
          Google Analytics and the Meta pixel. Nothing is sent to Google or Meta unless you accept.
        </p>
        <div className="consent__actions">
          <button type="button" className="button" onClick={() => answer('granted')}>
            Accept analytics cookies
          </button>
          <button type="button" className="button button--secondary" onClick={() => answer('denied')}>
            No thanks
          </button>
        </div>
      </div>
    </section>
  );
}
