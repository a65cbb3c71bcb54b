import qs from 'qs';
import { describe, expect, it } from 'vitest';
import { calls } from '../../contract';
import { toFormBody } from './form';

describe('form bodies', () => {
  it('nest tickets the way the add call expects, and the server parser reads them back', () => {
    const body = toFormBody({
      parent_event_id: null,
      ticket: { '3|7|12|0': { ticket: 12, qty: 2, seats: [{ section: 'Stalls', row: 'B', number: '14' }] } },
    });
    const parsed = qs.parse(body, { depth: 5 });
    expect(parsed).toEqual({
      parent_event_id: '',
      ticket: { '3|7|12|0': { ticket: '12', qty: '2', seats: [{ section: 'Stalls', row: 'B', number: '14' }] } },
    });
    expect(calls.addToBasket.request.safeParse(parsed).success).toBe(true);
  });

  it('send scalars as strings that the contract coerces back', () => {
    const parsed = qs.parse(toFormBody({ ticket_id: 5, quantity: 3 }));
    expect(calls.updateTicketQuantity.request.parse(parsed)).toEqual({ ticket_id: 5, quantity: 3 });
    expect(calls.updateRefundProtection.request.parse(qs.parse(toFormBody({ refund_protection: true })))).toEqual({
      refund_protection: true,
    });
  });

  it('leave out undefined fields and encode reserved characters', () => {
    expect(toFormBody({ code: 'A&B=C', 'h-captcha-response': undefined })).toBe('code=A%26B%3DC');
  });
});
