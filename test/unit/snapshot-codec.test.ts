import { describe, expect, it } from 'vitest';
import type { EventSnapshot } from '../../src/server/store/port.js';
import { decodeSnapshot, encodeSnapshot } from '../../src/server/store/snapshot-codec.js';

const AT = '2026-11-23T10:00:00.000Z';
const base: EventSnapshot = {
  status: 'paid',
  updated_at: AT,
  paid_at: AT,
  refunded_amount: 0,
  refused_reason: null,
  upto: { timeline: 12, refunds: 0, movements: 7 },
  customer_updated_at: '2026-11-23T09:59:00.000Z',
  totals: { balance_pix: 1970, balance_card: -39, balance_bank_slip: 0, paid_total: 1990, paid_month: 1990 },
};

describe('event snapshots', () => {
  it('come back as they went in, with times equal to the event’s written as 0', () => {
    const text = encodeSnapshot(base, AT);
    expect(text).toBe('[1,"paid",0,0,0,null,[12,0,7],"2026-11-23T09:59:00.000Z",[1970,-39,0,1990,1990]]');
    expect(decodeSnapshot(text, AT)).toEqual(base);
  });

  it('keeps times that differ from the event’s, nulls, and a card (present or null) only when there was one', () => {
    const other: EventSnapshot = { ...base, status: 'pending', updated_at: '2026-11-23T09:00:00.000Z', paid_at: null, refused_reason: 'authentication_failed', customer_updated_at: AT };
    expect(decodeSnapshot(encodeSnapshot(other, AT), AT)).toEqual(other);
    const card = { ...base, card: { brand: 'visa', holderName: 'F T', firstDigits: '411111', lastDigits: '1111', expirationMonth: '12', expirationYear: '2030', installments: 1, tokenized: false, threeDSecure: 'authenticated' } } as EventSnapshot;
    expect(decodeSnapshot(encodeSnapshot(card, AT), AT)).toEqual(card);
    const noCard = { ...base, card: null } as EventSnapshot;
    expect(decodeSnapshot(encodeSnapshot(noCard, AT), AT)).toEqual(noCard);
    expect(decodeSnapshot(encodeSnapshot(base, AT), AT)).not.toHaveProperty('card');
  });

  it('refuses a form it does not know, rather than guess', () => {
    expect(() => decodeSnapshot('{"status":"paid"}', AT)).toThrow(/unknown form/);
    expect(() => decodeSnapshot('[2,"paid"]', AT)).toThrow(/unknown form/);
  });
});
