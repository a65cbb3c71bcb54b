/**
 * Save to Google Wallet: a link carrying a JWT, signed (RS256, with jsonwebtoken, as Google's own
 * samples do) by the issuer's service account, that holds an event ticket class (the event date:
 * its name, venue and start) and an event ticket object (the ticket: its code as a QR barcode, the
 * holder and the seat). Keyed, the link is Google's; in demo mode the JWT is signed with a demo
 * issuer's key and the link opens the server's own stand-in page, which checks it as Google would.
 */
import jwt from 'jsonwebtoken';
import type { WalletPassSettings } from '../../config.ts';
import { DEMO_GOOGLE_ISSUER_ID, DEMO_GOOGLE_SERVICE_ACCOUNT, demoGoogleKeys } from './demoKeys.ts';
import type { PassTicket } from './ticket.ts';

export const GOOGLE_SAVE_URL = 'https://pay.google.com/gp/v/save/';
/** The stand-in for Google's save page, served in demo mode only. */
export const GOOGLE_STAND_IN_PATH = '/sandbox/google-wallet/save/';
/** A save link's JWT is good for a day from its making: the wallet page makes a fresh one each time. */
export const GOOGLE_SAVE_SECONDS = 86_400;

export interface GoogleWalletSigner {
  demo: boolean;
  issuerId: string;
  serviceAccount: string;
  privateKey: string;
}

export function googleWalletSigner(settings: WalletPassSettings['google'], demo: boolean): GoogleWalletSigner | null {
  if (settings) return { demo: false, ...settings };
  if (!demo) return null;
  return {
    demo: true,
    issuerId: DEMO_GOOGLE_ISSUER_ID,
    serviceAccount: DEMO_GOOGLE_SERVICE_ACCOUNT,
    privateKey: demoGoogleKeys().privateKey,
  };
}

const text = (value: string) => ({ defaultValue: { language: 'en-GB', value } });

/** What the JWT's payload holds: the class of the ticket's event date and the ticket's object. */
export function googleTicketPayload(issuerId: string, ticket: PassTicket, brandName: string, demo: boolean) {
  const classId = `${issuerId}.event-date-${ticket.eventDateId}`;
  return {
    eventTicketClasses: [
      {
        id: classId,
        issuerName: demo ? `${brandName} (demo)` : brandName,
        reviewStatus: 'UNDER_REVIEW',
        eventName: text(ticket.eventTitle),
        venue: {
          name: text(ticket.venueName),
          address: text([ticket.venueAddress, ticket.city].filter(Boolean).join(', ')),
        },
        dateTime: { start: ticket.startsAt.toISOString() },
      },
    ],
    eventTicketObjects: [
      {
        id: `${issuerId}.ticket-${ticket.code}`,
        classId,
        state: 'ACTIVE',
        ticketHolderName: ticket.holderName,
        ticketNumber: ticket.code,
        ticketType: text(ticket.ticketName),
        ...(ticket.seat ? { seatInfo: { seat: text(ticket.seat) } } : {}),
        barcode: { type: 'QR_CODE', value: ticket.code, alternateText: ticket.code },
      },
    ],
  };
}

/** The signed JWT of a save link, for the site at `origin`. */
export function googleSaveJwt(
  signer: GoogleWalletSigner,
  ticket: PassTicket,
  p: { origin: string; brandName: string },
): string {
  return jwt.sign(
    {
      iss: signer.serviceAccount,
      aud: 'google',
      typ: 'savetowallet',
      origins: [p.origin],
      payload: googleTicketPayload(signer.issuerId, ticket, p.brandName, signer.demo),
    },
    signer.privateKey,
    { algorithm: 'RS256', expiresIn: GOOGLE_SAVE_SECONDS },
  );
}

export function googleSaveUrl(signer: GoogleWalletSigner, token: string): string {
  return `${signer.demo ? GOOGLE_STAND_IN_PATH : GOOGLE_SAVE_URL}${token}`;
}

export type SavedTicketObject = ReturnType<typeof googleTicketPayload>;

/** The stand-in's check of a save link, as Google makes it: signed by the demo issuer, for Google, to save, not past its end. */
export function readDemoSaveJwt(token: string): SavedTicketObject | null {
  try {
    const claims = jwt.verify(token, demoGoogleKeys().publicKey, {
      algorithms: ['RS256'],
      audience: 'google',
      issuer: DEMO_GOOGLE_SERVICE_ACCOUNT,
    }) as jwt.JwtPayload;
    if (claims.typ !== 'savetowallet' || typeof claims.payload !== 'object' || claims.payload === null) return null;
    const payload = claims.payload as SavedTicketObject;
    if (!Array.isArray(payload.eventTicketObjects) || !Array.isArray(payload.eventTicketClasses)) return null;
    return payload;
  } catch {
    return null;
  }
}
