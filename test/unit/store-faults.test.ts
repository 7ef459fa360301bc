// Which engine errors are the store's faults, and what each is answered; the health a fault sets and what clears it.
import { describe, expect, it } from 'vitest';
import { createHealthTracker, healthLine, StoreFault, type StoreHealth } from '../../src/server/store/faults.js';
import { isConnectionLoss, maskedUrl, pgFault } from '../../src/server/store/postgres/faults.js';
import { sqliteFault } from '../../src/server/store/sqlite/faults.js';
import { storeFaultError } from '../../src/server/errors.js';

const pgError = (code: string, message = 'boom') => Object.assign(new Error(message), { code });
const sqliteError = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('PostgreSQL errors', () => {
  it.each([
    [pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'), 'store_unavailable', 503, '1'],
    [new Error('Connection terminated unexpectedly'), 'store_unavailable', 503, '1'],
    [new Error('Query read timeout'), 'store_unavailable', 503, '1'],
    [new Error('timeout exceeded when trying to connect'), 'store_unavailable', 503, '1'],
    [pgError('57P01', 'terminating connection due to administrator command'), 'store_unavailable', 503, '1'],
    [pgError('57P03', 'the database system is starting up'), 'store_unavailable', 503, '1'],
    [pgError('08006'), 'store_unavailable', 503, '1'],
    [pgError('53100', 'could not extend file "base/1/2": No space left on device'), 'insufficient_storage', 507, '30'],
    [pgError('58030', 'could not read block'), 'store_unavailable', 503, '5'],
    [pgError('25006', 'cannot execute INSERT in a read-only transaction'), 'store_unavailable', 503, '5'],
  ])('%s is %s (%i, Retry-After %s)', (error, code, status, retryAfter) => {
    const fault = pgFault(error, 'postgres://…@db:5432/team') as StoreFault;
    expect(fault.code).toBe(code);
    const answer = storeFaultError(fault);
    expect([answer.status, answer.headers['Retry-After']]).toEqual([status, retryAfter]);
    expect(fault.message).toContain('postgres://…@db:5432/team');
  });

  it.each([pgError('23505', 'duplicate key'), pgError('22P02', 'invalid input syntax'), new Error('Idempotency-Key x: neither claimed nor remembered'), new TypeError('x is undefined')])(
    '%s is not a fault of the store', (error) => {
      expect(pgFault(error, 'db')).toBeUndefined();
      expect(isConnectionLoss(error)).toBe(false);
    });

  it('tells a lost connection from a full disk', () => {
    expect(isConnectionLoss(pgError('57P01'))).toBe(true);
    expect(isConnectionLoss(pgError('53100'))).toBe(false);
  });

  it('hides the user and password of a URL', () => {
    expect(maskedUrl('postgres://alice:s3cret@db:5432/team')).toBe('postgres://…@db:5432/team');
    expect(maskedUrl('postgres://db:5432/team')).toBe('postgres://db:5432/team');
  });
});

describe('SQLite errors', () => {
  it.each([
    ['SQLITE_FULL', 'insufficient_storage', 507, '30'],
    ['SQLITE_CORRUPT', 'store_damaged', 503, undefined],
    ['SQLITE_CORRUPT_INDEX', 'store_damaged', 503, undefined],
    ['SQLITE_NOTADB', 'store_damaged', 503, undefined],
    ['SQLITE_IOERR_WRITE', 'store_unavailable', 503, '5'],
    ['SQLITE_BUSY', 'store_unavailable', 503, '1'],
  ])('%s is %s (%i, Retry-After %s)', (code, fault, status, retryAfter) => {
    const found = sqliteFault(sqliteError(code), '/data/dev.db') as StoreFault;
    expect(found.code).toBe(fault);
    expect(found.message).toContain('/data/dev.db');
    const answer = storeFaultError(found);
    expect([answer.status, answer.headers['Retry-After']]).toEqual([status, retryAfter]);
  });

  it('quotes a path a shell would split in the advice to recover it', () => {
    expect(sqliteFault(sqliteError('SQLITE_CORRUPT'), "/data/my db's.db")?.message).toContain(`sqlite3 '/data/my db'\\''s.db' ".recover"`);
  });

  it.each(['SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', undefined])('%s is not a fault of the store', (code) => {
    expect(sqliteFault(code ? sqliteError(code) : new Error('x'), '/data/dev.db')).toBeUndefined();
  });
});

describe('the store’s health', () => {
  it('a fault is told once per kind, cleared by a commit for a full disk, and never by a commit for a damaged file', () => {
    const health = createHealthTracker(() => new Date('2026-11-28T12:00:00.000Z'));
    const seen: StoreHealth[] = [];
    health.onChange((now) => seen.push(now));
    const full = new StoreFault('insufficient_storage', 'The disk is full.', 30);
    health.fault(full);
    health.fault(full);
    expect(seen).toEqual([{ status: 'degraded', code: 'insufficient_storage', reason: 'The disk is full.', since: '2026-11-28T12:00:00.000Z' }]);
    health.committed();
    expect(health.get()).toEqual({ status: 'ok' });
    health.fault(new StoreFault('store_damaged', 'The file is damaged.'));
    health.committed();
    expect(health.get()).toMatchObject({ status: 'degraded', code: 'store_damaged' });
    expect(seen).toHaveLength(3);
  });

  it('is told in one line each way', () => {
    const down: StoreHealth = { status: 'degraded', code: 'store_unavailable', reason: 'The database db does not answer (x).', since: new Date(Date.now() - 3000).toISOString() };
    expect(healthLine(down, { status: 'ok' })).toBe('store: The database db does not answer (x). Meanwhile requests are answered 503 store_unavailable (with Retry-After) until it answers again.');
    expect(healthLine({ status: 'ok' }, down)).toMatch(/^store: the database answers again after 3\.\d s: serving as usual$/);
  });
});
