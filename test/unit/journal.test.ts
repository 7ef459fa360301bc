// The inspector's pieces that decide what is kept and what matches: redaction, problem pointers, the
// pattern matcher and its near misses, and the recorder's batches and its handling of a store that fails.
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { JournalEntry } from '../../src/api/journal.js';
import { pathMatcher } from '../../src/base/glob.js';
import { differences, find } from '../../src/server/journal/match.js';
import { BATCH_CHARS, createRecorder, FLUSH_MS, SOON_MS } from '../../src/server/journal/recorder.js';
import { capped, maskCardNumbers, redactedJson, redactSecretText, redactValue } from '../../src/server/journal/redact.js';
import { pointer } from '../../src/api/json-pointer.js';
import { StoreFault } from '../../src/server/store/faults.js';
import type { NewJournalEntry, Store } from '../../src/server/store/port.js';

describe('redaction', () => {
  it('masks card.number whatever it holds, and any Luhn-valid card number elsewhere; removes security codes; replaces secrets', () => {
    const body = {
      method: 'credit_card',
      card: { number: '4111 1111 1111 1111', security_code: '123', first_name: 'Ana' },
      metadata: { note: 'paid with 5555-5555-5555-4444 yesterday', order: '1234567890123' },
      payer: { address_number: '1000', phone: '+5511999998888' },
      webhook_secret: 'whsec_abcdefghijklmnop',
      nested: [{ cvv: '999', token: 'tok_live_123' }],
    };
    expect(redactValue(body)).toEqual({
      method: 'credit_card',
      card: { number: '411111******1111', first_name: 'Ana' },
      metadata: { note: 'paid with 555555******4444 yesterday', order: '1234567890123' },
      payer: { address_number: '1000', phone: '+5511999998888' },
      webhook_secret: '[redacted]',
      nested: [{ token: '[redacted]' }],
    });
    // a number that fails the Luhn check is masked only where it is the card's
    expect(redactValue({ card: { number: 4000000000000001 } })).toEqual({ card: { number: '400000******0001' } });
    expect(maskCardNumbers('ref 4000000000000001')).toBe('ref 4000000000000001');
  });

  it('writes a body’s JSON once when it holds nothing to redact, and exactly as redactValue when it may', () => {
    const samples: unknown[] = [
      { payment_method: 'pix', amount: 1000, payer: { name: 'Ana', cpf_cnpj: '12345678909', address: { street: 'Rua A', number: '100' } }, items: [{ description: 'Camiseta', quantity: 2 }] },
      { Card: { number: 'not digits at all' } },
      { card: { holder: { number: 7 } } },
      { payer: { cpf_cnpj: '11222333000181' } }, // 14 digits: looked at, not a card number, kept
      { card: { number: 'not a number', CVV: '123' } },
      { Security_Code: 1, nested: [{ PASSWORD: 'x', tokens: ['a'] }] },
      { note: 'card 4111-1111-1111-1111' },
      { card: { number: 4111111111111111 } },
      { authorization: { scheme: 'Bearer' } },
      ['4111111111111111', 5, null, true],
      'plain', 42, null,
    ];
    for (const value of samples) expect(redactedJson(value)).toBe(JSON.stringify(redactValue(value)));
    const plain = samples[0]; // an address's number is not a card's: written with one stringify, as it is
    expect(redactedJson(plain)).toBe(JSON.stringify(plain));
    expect(redactedJson({ Card: { number: 'not digits at all' } })).not.toContain('not digits at all');
    expect(redactedJson({ note: 'card 4111-1111-1111-1111' })).not.toContain('1111-1111-1111');
    // a phone with its country code is a run of 13 digits: kept as it is unless it passes the Luhn check
    expect(redactedJson({ payer: { phone: '+5511999998888' } })).toBe('{"payer":{"phone":"+5511999998888"}}');
    expect(redactedJson({ payer: { phone: '+5511999998884' } })).toBe('{"payer":{"phone":"+551199***8884"}}');
  });

  it('writes what redactValue writes for any body (random bodies of digit runs, names and nesting)', () => {
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const digits = (n: number) => Array.from({ length: n }, () => next(10)).join('');
    const names = ['number', 'card', 'Card', 'cvv', 'phone', 'note', 'token', 'payer', 'items', 'cpf_cnpj', 'x'];
    const leaf = (): unknown => {
      const k = next(6);
      if (k === 0) return digits(12 + next(9));
      if (k === 1) return `${digits(4)} ${digits(4)}-${digits(4)} ${digits(4)}`;
      if (k === 2) return Number(digits(1 + next(16)));
      if (k === 3) return `ref ${digits(13 + next(7))} end`;
      return k === 4 ? null : 'text';
    };
    const value = (depth: number): unknown => {
      if (depth === 0 || next(3) === 0) return leaf();
      if (next(4) === 0) return Array.from({ length: next(4) }, () => value(depth - 1));
      return Object.fromEntries(Array.from({ length: 1 + next(4) }, () => [names[next(names.length)], value(depth - 1)]));
    };
    for (let i = 0; i < 2000; i++) {
      const body = value(4);
      expect(redactedJson(body)).toBe(JSON.stringify(redactValue(body)));
    }
  });

  it('replaces secret values in an answer, and cuts a text above the cap, marked', () => {
    expect(redactSecretText('{"webhook_secret":"whsec_\\"quoted\\"","signature_header":"Pinvoice-Signature"}')).toBe('{"webhook_secret":"[redacted]","signature_header":"Pinvoice-Signature"}');
    const long = 'x'.repeat(70_000);
    expect(capped(long)).toMatch(/^x{65536}…\[cut: 70000 bytes\]$/);
    expect(capped('short')).toBe('short');
  });

  it('points problems into the body as JSON pointers; query and header paths stay named', () => {
    expect(pointer('payer.cpf_cnpj')).toBe('/payer/cpf_cnpj');
    expect(pointer('items[0].unit_price')).toBe('/items/0/unit_price');
    expect(pointer('metadata.a/b~c')).toBe('/metadata/a~1b~0c');
    expect(pointer('(body)')).toBe('');
    expect(pointer('query.limit')).toBe('query.limit');
    expect(pointer('headers.Idempotency-Key')).toBe('headers.Idempotency-Key');
  });
});

const entry = (id: number, over: Partial<JournalEntry> = {}): JournalEntry => ({
  id, at: '2026-01-01T00:00:00.000Z', sandbox_at: '2026-01-01T00:00:00.000Z', direction: 'in', method: 'POST', path: '/api/v2/invoices',
  query: {}, headers: {}, body: null, status: 200, response_body: null, duration_ms: 1, token_name: 't', token_hint: null,
  idempotency_key: null, replayed: false, problems: [], invoice_ids: [], event_id: null, event: null, attempt: null, url: null,
  signature_headers: [], error: null, ...over,
});

describe('matching', () => {
  it('matches every member given: method in any case, a path with *, a status class, a query subset, a body subset by position', () => {
    const e = entry(1, { query: { limit: '5', status: 'paid' }, body: { items: [{ name: 'A', quantity: 1 }, { name: 'B' }], payer: { cpf_cnpj: '1' } }, status: 422 });
    expect(differences({ method: 'post', path: '/api/*/invoices', status: '4xx', query: { limit: '5' }, body: { items: [{ name: 'A' }], payer: {} } }, e).list).toEqual([]);
    expect(differences({ body: { items: [{}, { name: 'C' }] } }, e).list).toEqual([{ path: '/items/1/name', expected: 'C', received: 'B' }]);
    expect(differences({ body: { payer: { email: 'a@b.co' } }, status: 200 }, e).list).toEqual([
      { path: 'status', expected: 200, received: 422 },
      { path: '/payer/email', expected: 'a@b.co' },
    ]);
    expect(pathMatcher('/api/v2/invoices/*/refund')('/api/v2/invoices/INV-1/refund')).toBe(true);
    expect(pathMatcher('/api/v2/invoices/*/refund')('/api/v2/invoices/INV-1/3ds')).toBe(false);
  });

  it('answers near misses only when nothing matches: the fewest differences first, the newest among equals, at most three', () => {
    const entries = [
      entry(1, { method: 'GET', path: '/api/v2/company' }),
      entry(2, { body: { payer: { cpf_cnpj: '123' } }, status: 422, problems: [{ path: '/payer/cpf_cnpj', message: 'is not a CPF' }] }),
      entry(3, { body: { payer: { cpf_cnpj: '999' } } }),
      entry(4, { path: '/api/v2/invoice', body: { payer: { cpf_cnpj: '529' } } }),
    ];
    const result = find({ method: 'POST', path: '/api/v2/invoices', body: { payer: { cpf_cnpj: '529' } } }, entries);
    expect(result.data).toEqual([]);
    expect(result.near_misses.map((miss) => miss.entry.id)).toEqual([4, 3, 2]);
    expect(result.near_misses[2]?.problems).toEqual([{ path: '/payer/cpf_cnpj', message: 'is not a CPF' }]);
    expect(find({ method: 'GET' }, entries)).toEqual({ data: [entries[0]], near_misses: [] });
  });
});

describe('the recorder', () => {
  const newEntry = (company: number): NewJournalEntry => ({
    company_id: company, at: 0, sandbox_at: 0, direction: 'in', method: 'GET', path: '/', status: 200, invoice_id: null, duration_ms: 0, request_body: null, response_body: null, detail: '{}',
  });
  function storeThat(fail: () => unknown) {
    const calls: { entries: NewJournalEntry[]; lost: Map<number, number> }[] = [];
    let failing = true;
    const store = {
      journal: {
        async append(entries: NewJournalEntry[], _keep: number, lost?: ReadonlyMap<number, number>) {
          if (failing) throw fail();
          calls.push({ entries, lost: new Map(lost) });
        },
      },
    } as unknown as Store;
    return { store, calls, heal: () => (failing = false) };
  }

  it('keeps a batch while the store is away and writes it with the next one', async () => {
    const { store, calls, heal } = storeThat(() => new StoreFault('store_unavailable', 'away', 1));
    const recorder = createRecorder(store, 10, () => undefined);
    recorder.record(newEntry(1));
    await expect(recorder.flush()).rejects.toBeInstanceOf(StoreFault);
    heal();
    recorder.record(newEntry(1));
    await recorder.flush();
    expect(calls).toHaveLength(1);
    expect(calls[0]?.entries).toHaveLength(2);
    await recorder.close();
  });

  it('drops a batch the store refuses for itself (not a fault of the store), counts it, and tells the error once', async () => {
    const errors: unknown[] = [];
    const { store, calls, heal } = storeThat(() => new Error('invalid input syntax'));
    const recorder = createRecorder(store, 10, (error) => errors.push(error));
    recorder.record(newEntry(7));
    recorder.record(newEntry(7));
    await expect(recorder.flush()).rejects.toThrow('invalid input syntax');
    heal();
    recorder.record(newEntry(7));
    await recorder.flush();
    expect(calls[0]?.entries).toHaveLength(1);
    expect(calls[0]?.lost).toEqual(new Map([[7, 2]]));
    await recorder.close();
  });

  describe('when a batch goes', () => {
    afterEach(() => void vi.useRealTimers());
    /** The recorder on a store that takes every batch, and what it was given after `ms` more. */
    function timed() {
      vi.useFakeTimers();
      const { store, calls, heal } = storeThat(() => new Error('never'));
      heal();
      const recorder = createRecorder(store, 10, () => undefined);
      const written = async (ms: number) => {
        await vi.advanceTimersByTimeAsync(ms);
        return calls.reduce((n, call) => n + call.entries.length, 0);
      };
      return { recorder, written };
    }

    it('writes a change with the next batch, 100 ms after the first entry, while nobody listens', async () => {
      const { recorder, written } = timed();
      recorder.record(newEntry(1), true);
      expect(await written(FLUSH_MS - 1)).toBe(0);
      expect(await written(1)).toBe(1);
      await recorder.close();
    });

    it('writes a change within 10 ms while somebody listens, and at once a change that came before they listened', async () => {
      const { recorder, written } = timed();
      const heard: number[] = [];
      const stop = recorder.onWritten((companies) => heard.push(...companies));
      recorder.record(newEntry(1), true);
      expect(await written(SOON_MS)).toBe(1);
      expect(heard).toEqual([1]);
      recorder.record(newEntry(2));
      expect(await written(SOON_MS)).toBe(1); // a read's entry waits for its batch, listened to or not
      expect(await written(FLUSH_MS)).toBe(2);
      stop();
      recorder.record(newEntry(3), true);
      expect(await written(SOON_MS)).toBe(2);
      recorder.onWritten(() => undefined);
      expect(await written(SOON_MS)).toBe(3);
      await recorder.close();
    });

    it('writes a batch at once when its own bodies reach BATCH_CHARS, and the next one as soon as that write ends', async () => {
      vi.useFakeTimers();
      // a store whose write ends when the test says so
      const batches: number[] = [];
      let finish: () => void = () => undefined;
      const store = {
        journal: {
          append: (entries: NewJournalEntry[]) => new Promise<void>((resolve) => {
            finish = () => {
              finish = () => undefined;
              batches.push(entries.length);
              resolve();
            };
          }),
        },
      } as unknown as Store;
      const recorder = createRecorder(store, 10, () => undefined);
      const big = (): NewJournalEntry => ({ ...newEntry(1), request_body: 'x'.repeat(BATCH_CHARS / 4), response_body: 'y'.repeat(BATCH_CHARS / 4) });
      recorder.record(big());
      await vi.advanceTimersByTimeAsync(0);
      finish();
      expect(batches).toEqual([]); // half of it: the batch waits for its time
      recorder.record(big());
      await vi.advanceTimersByTimeAsync(0); // a batch of two goes at once; its write is under way
      recorder.record(big());
      recorder.record(big());
      recorder.record(newEntry(1));
      await vi.advanceTimersByTimeAsync(0);
      finish();
      await vi.advanceTimersByTimeAsync(0); // the write ends: the three that came meanwhile go at once
      finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([2, 3]);
      // an answer shared by ref (a Buffer) is not the batch's to send: it counts for nothing
      for (let k = 0; k < 10; k++) recorder.record({ ...newEntry(1), response_body: Buffer.alloc(BATCH_CHARS) });
      await vi.advanceTimersByTimeAsync(FLUSH_MS - 1);
      finish();
      expect(batches).toEqual([2, 3]);
      await vi.advanceTimersByTimeAsync(1);
      finish();
      await vi.advanceTimersByTimeAsync(0);
      expect(batches).toEqual([2, 3, 10]);
    });
  });

  it('records nothing with a window of 0', async () => {
    const { store, calls, heal } = storeThat(() => new Error('never'));
    heal();
    const recorder = createRecorder(store, 0, () => undefined);
    recorder.record(newEntry(1));
    await recorder.flush();
    expect(calls).toEqual([]);
  });
});
