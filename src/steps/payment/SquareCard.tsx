/**
 * Square's card form, once get_square_credentials has answered: Square's Web Payments SDK
 * (`@square/web-sdk`, imported only here, so it loads only when Square takes a card, with Square's
 * library from SQUARE_SCRIPT_PATH) when keyed,
 * otherwise the sandbox's card fields. Pay sends the card to be tokenised and charged.
 */
import { useEffect, useId } from 'react';
import { useSelector } from '@xstate/react';
import type { ActorRefFrom } from 'xstate';
import { SQUARE_SCRIPT_PATH } from '../../../contract/square';
import { squareSenders, viewSquare } from '../../../machines/square/square.connect';
import type { squareMachine } from '../../../machines/square/square.machine';
import { Alert } from '../../../ui/Alert';
import { LoadingButton } from '../../../ui/LoadingButton';
import { Spinner } from '../../../ui/Spinner';
import { SandboxCardFields } from './SandboxCardFields';
import { squareCardElement } from './sandboxCardElement';
import { t } from '../../../i18n/runtime.ts';

function SquareSdkCard({ appId, locationId }: { appId: string; locationId: string }) {
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  useEffect(() => {
    let gone = false;
    // Square's library is loaded from the spec's path (the server sends it on to Square's), and
    // only while `window.Square` is not there yet: the SDK reuses a library already loaded.
    void import('@square/web-sdk')
      .then(({ payments }) => payments(appId, locationId, { scriptSrc: SQUARE_SCRIPT_PATH }))
      .then(async (p) => {
        if (!p || gone) return;
        const card = await p.card();
        if (gone) return void card.destroy();
        await card.attach(`#square-card-${id}`);
        squareCardElement.set(card);
      });
    return () => {
      gone = true;
      void squareCardElement.get()?.destroy();
      squareCardElement.set(null);
    };
  }, [appId, locationId, id]);
  return <div id={`square-card-${id}`} className="payment__stripe" />;
}

export function SquareCard({ actor, payLabel }: { actor: ActorRefFrom<typeof squareMachine>; payLabel: string }) {
  const view = useSelector(actor, viewSquare);
  const send = squareSenders((event) => actor.send(event));
  if (view.loading) {
    return (
      <p className="payment__working">
        <Spinner size="medium" /> {t('payment.loadingCardForm')}
      </p>
    );
  }
  if (!view.showCard || !view.credentials) {
    return (
      <p className="payment__working">
        <Spinner size="medium" /> {t('payment.confirmingEllipsis')}
      </p>
    );
  }
  return (
    <div className="stack square-card" data-testid="square-card">
      <h3 className="section-title">{t('payment.cardDetails')}</h3>
      {view.form === 'square' ? (
        <SquareSdkCard appId={view.credentials.app_id} locationId={view.credentials.location_id} />
      ) : (
        <SandboxCardFields disabled={view.paying} />
      )}
      {view.cardError ? <Alert type="error">{view.cardError}</Alert> : null}
      <LoadingButton
        type="button"
        loading={view.paying}
        className="button--block button--large"
        onClick={send.submitCard}
      >
        {view.paying ? t('payment.confirming') : payLabel}
      </LoadingButton>
    </div>
  );
}
