/**
 * An Apple Wallet pass (.pkpass) per ticket, made and signed with passkit-generator: an event
 * ticket whose barcode is the ticket's code, with the event, date, venue, seat and holder. Signed
 * with the pass type's certificate when keyed; in demo mode, with demo keys whose names and the
 * pass's own words say it is a demo that Apple Wallet will not accept.
 */
import { PKPass } from 'passkit-generator';
import type { WalletPassSettings } from '../../config.ts';
import { formatNiceDate } from '../format.ts';
import { DEMO_PASS_TYPE_ID, DEMO_TEAM_ID, demoAppleKeys } from './demoKeys.ts';
import { solidPng } from './png.ts';
import type { PassTicket } from './ticket.ts';

export const PKPASS_TYPE = 'application/vnd.apple.pkpass';

export interface ApplePassSigner {
  demo: boolean;
  passTypeIdentifier: string;
  teamIdentifier: string;
  certificates: { wwdr: string; signerCert: string; signerKey: string; signerKeyPassphrase?: string };
}

/** The keyed signer, or demo mode's own; null when neither is available (no pass is offered). */
export function applePassSigner(settings: WalletPassSettings['apple'], demo: boolean): ApplePassSigner | null {
  if (settings) {
    return {
      demo: false,
      passTypeIdentifier: settings.passTypeIdentifier,
      teamIdentifier: settings.teamIdentifier,
      certificates: {
        wwdr: settings.wwdr,
        signerCert: settings.signerCert,
        signerKey: settings.signerKey,
        ...(settings.signerKeyPassphrase ? { signerKeyPassphrase: settings.signerKeyPassphrase } : {}),
      },
    };
  }
  if (!demo) return null;
  return {
    demo: true,
    passTypeIdentifier: DEMO_PASS_TYPE_ID,
    teamIdentifier: DEMO_TEAM_ID,
    certificates: demoAppleKeys(),
  };
}

const BRAND_COLOUR = '#0f766e';

export function applePass(signer: ApplePassSigner, ticket: PassTicket, brandName: string): Buffer {
  const icon = solidPng(29, BRAND_COLOUR);
  const pass = new PKPass(
    { 'icon.png': icon, 'icon@2x.png': solidPng(58, BRAND_COLOUR), 'logo.png': solidPng(50, BRAND_COLOUR) },
    signer.certificates,
    {
      formatVersion: 1,
      serialNumber: ticket.code,
      passTypeIdentifier: signer.passTypeIdentifier,
      teamIdentifier: signer.teamIdentifier,
      organizationName: signer.demo ? `${brandName} (demo)` : brandName,
      description: signer.demo
        ? `DEMO ticket for ${ticket.eventTitle}: not valid in Apple Wallet`
        : `Ticket for ${ticket.eventTitle}`,
      logoText: signer.demo ? `${brandName} DEMO` : brandName,
      backgroundColor: 'rgb(15, 118, 110)',
      foregroundColor: 'rgb(255, 255, 255)',
      labelColor: 'rgb(230, 244, 242)',
      sharingProhibited: true,
    },
  );
  pass.type = 'eventTicket';
  pass.primaryFields.push({ key: 'event', label: 'Event', value: ticket.eventTitle });
  pass.secondaryFields.push(
    { key: 'date', label: 'Date', value: formatNiceDate(ticket.startsAt) },
    { key: 'seat', label: 'Seat', value: ticket.seat ?? 'General admission' },
  );
  pass.auxiliaryFields.push(
    { key: 'venue', label: 'Venue', value: [ticket.venueName, ticket.city].filter(Boolean).join(', ') },
    { key: 'ticket', label: 'Ticket', value: ticket.ticketName },
  );
  pass.backFields.push(
    { key: 'holder', label: 'Holder', value: ticket.holderName },
    { key: 'code', label: 'Ticket code', value: ticket.code },
    { key: 'address', label: 'Venue address', value: ticket.venueAddress },
    { key: 'organiser', label: 'Organiser', value: ticket.organiserName },
    ...(ticket.saleReference ? [{ key: 'order', label: 'Order', value: ticket.saleReference }] : []),
    ...(signer.demo
      ? [
          {
            key: 'demo',
            label: 'Demo',
            value: 'Made in demo mode and signed by a demo authority: Apple Wallet will not accept this pass.',
          },
        ]
      : []),
  );
  pass.setRelevantDate(ticket.startsAt);
  pass.setBarcodes({
    message: ticket.code,
    format: 'PKBarcodeFormatQR',
    messageEncoding: 'iso-8859-1',
    altText: ticket.code,
  });
  return pass.getAsBuffer();
}
