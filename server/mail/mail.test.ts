/** What each e-mail says, given the data the domain hands its template. */
import { describe, expect, it } from 'vitest';
import type { WalletTicket } from '../domain/tickets.ts';
import {
  feedbackMail,
  feedbackSubject,
  paymentScheduleMail,
  signInCodeMail,
  transferMail,
  walletMail,
} from './index.ts';

const startsAt = new Date('2026-12-18T20:00:00Z');

describe('mail templates', () => {
  it('offers transferred tickets, naming a gift and quoting the sender’s message', () => {
    const transfer = {
      recipientName: 'Ann Lee',
      senderName: 'Tom Hughes',
      qty: 2,
      ticketName: 'Adult',
      eventTitle: 'Jazz night',
      startsAt,
      isGift: true,
      message: 'Enjoy!',
      acceptUrl: 'https://holdfast.example/t/abc',
    };
    expect(transferMail('Holdfast', transfer)).toEqual({
      subject: 'Tom Hughes sent you a gift: tickets for Jazz night',
      text: [
        'Hello Ann Lee,',
        '',
        'Tom Hughes has sent you 2 Adult tickets for Jazz night, Fri, 18 Dec 2026, 8:00 pm, through Holdfast.',
        '',
        'Their message:',
        'Enjoy!',
        '',
        'Accept them here and they move to your ticket wallet: https://holdfast.example/t/abc',
        '',
        'Until you accept, the tickets stay with Tom Hughes.',
      ].join('\n'),
    });
    const plain = transferMail('Holdfast', { ...transfer, qty: 1, isGift: false, message: '' });
    expect(plain.subject).toBe('Tom Hughes sent you tickets for Jazz night');
    expect(plain.text).toContain('Tom Hughes has sent you 1 Adult ticket for Jazz night');
    expect(plain.text).not.toContain('Their message:');
  });

  it('lists every ticket of the wallet e-mail with its code', () => {
    const ticket = {
      code: 'HFT-1',
      eventTitle: 'Jazz night',
      startsAt,
      venue: 'Harbour Hall',
      ticketName: 'Adult',
      seat: null,
      holderName: 'Ann Lee',
    } as WalletTicket;
    expect(
      walletMail('Holdfast', {
        saleReference: 'HF123',
        tickets: [ticket, { ...ticket, code: 'HFT-2', seat: 'A1' }],
        walletUrl: 'https://holdfast.example/account/wallet/',
      }),
    ).toEqual({
      subject: 'Your tickets (HF123)',
      text: [
        'Here are your tickets from Holdfast.',
        '',
        'Jazz night',
        '  Fri, 18 Dec 2026, 8:00 pm · Harbour Hall',
        '  Adult · General admission · Ann Lee',
        '  Ticket code: HFT-1',
        '',
        'Jazz night',
        '  Fri, 18 Dec 2026, 8:00 pm · Harbour Hall',
        '  Adult · A1 · Ann Lee',
        '  Ticket code: HFT-2',
        '',
        'Your ticket wallet, with a QR code for each ticket to show at the door: https://holdfast.example/account/wallet/',
      ].join('\n'),
    });
    expect(walletMail('Holdfast', { saleReference: null, tickets: [ticket], walletUrl: '' }).subject).toBe(
      'Your tickets',
    );
  });

  it('passes a buyer’s feedback on with whom to answer', () => {
    const events = [
      { title: 'Jazz night', organiser: 'Riverside Arts' },
      { title: 'Food fair', organiser: 'Harbour Lights' },
    ];
    expect(
      feedbackMail('Holdfast', {
        saleReference: 'HF123',
        buyer: { firstName: 'Ann', lastName: 'Lee', email: 'ann@example.com' },
        events,
        message: '  Lovely evening.  ',
      }),
    ).toEqual({
      subject: 'Feedback on order HF123',
      text: [
        'Ann Lee <ann@example.com> sent feedback on order HF123 through Holdfast.',
        'Events: Jazz night (Riverside Arts); Food fair (Harbour Lights)',
        '',
        'Lovely evening.',
        '',
        'Reply to ann@example.com to answer them.',
      ].join('\n'),
    });
    const anonymous = feedbackMail('Holdfast', { saleReference: null, buyer: null, events, message: 'Hi' });
    expect(anonymous.subject).toBe(feedbackSubject(null));
    expect(anonymous.subject).toBe('Feedback on order without a reference');
    expect(anonymous.text.startsWith('A buyer who did not sign in sent feedback on order  through Holdfast.')).toBe(
      true,
    );
  });

  it('puts the one-time code in the subject and the text', () => {
    expect(signInCodeMail('Holdfast', '123456')).toEqual({
      subject: '123456 is your Holdfast code',
      text: [
        'Your one-time sign in or registration code is 123456',
        '',
        'Type it on the checkout page to carry on. It works once, for 15 minutes.',
        'If you did not ask for it, you can ignore this email.',
      ].join('\n'),
    });
  });

  it('lists the payment schedule one instalment a line, marking those paid or failed', () => {
    const schedule = [
      { seq: 1, dueAt: new Date('2026-06-01T12:00:00Z'), amount: 3334, status: 'paid' as const },
      { seq: 2, dueAt: new Date('2026-07-01T12:00:00Z'), amount: 3333, status: 'failed' as const },
      { seq: 3, dueAt: new Date('2026-07-31T23:30:00Z'), amount: 3333, status: 'scheduled' as const },
    ];
    const mail = paymentScheduleMail({
      saleReference: 'HF123',
      schedule,
      settingsUrl: 'http://holdfast.test/account/plans/HF123/card/',
    });
    expect(mail.subject).toBe('Your payment schedule for order HF123');
    expect(mail.text).toContain('01/06/2026: £33.34 (paid)\n2. 01/07/2026: £33.33 (failed)\n3. 01/08/2026: £33.33\n');
    // The account-settings link goes to the page where this plan's card is changed.
    expect(mail.text).toContain(
      'You can update your payment method in your account settings: http://holdfast.test/account/plans/HF123/card/',
    );
    expect(
      paymentScheduleMail({ saleReference: null, schedule, settingsUrl: 'http://holdfast.test/account/' }).subject,
    ).toBe('Your payment schedule');
  });
});
