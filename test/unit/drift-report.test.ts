// `pinvoice drift`: a journal's findings grouped by (operation, direction, kind, path), counted, put
// worst first and matched with the accept file; and the accept file's own checking.
import { describe, expect, it } from 'vitest';
import { DriftReport, type Acceptance } from '../../src/api/drift.js';
import { InputError } from '../../src/base/input-error.js';
import { parseAcceptText } from '../../src/proxy/drift/accept.js';
import { buildReport, failing } from '../../src/proxy/drift/report.js';
import { entry, finding } from '../support/drift.js';
import { readmeBlocks } from '../support/readme.js';

const NOW = new Date('2026-12-01T12:00:00.000Z');

const rules = (value: unknown): Acceptance[] => parseAcceptText(JSON.stringify(value), 'accept.json');

describe('grouping and counting', () => {
  it('findings of one (operation, direction, kind, path) are one group: count, first and last seen, expected', async () => {
    const report = await buildReport([entry(3, [finding()]), entry(1, [finding()]), entry(2, [])], { now: NOW });
    expect(report.entries).toBe(3);
    expect(report.entries_with_findings).toBe(2);
    expect(report.groups).toHaveLength(1);
    expect(report.groups[0]).toMatchObject({ count: 2, first_seen: entry(1, []).at, last_seen: entry(3, []).at, expected: 'integer', entry_ids: [3, 1], state: 'counted', acceptance: null });
    expect(() => DriftReport.parse(report)).not.toThrow();
  });

  it('another direction, kind, path or operation is another group', async () => {
    const report = await buildReport([entry(1, [finding(), finding({ direction: 'request' }), finding({ kind: 'null', severity: 'warning' }), finding({ path: '/data/id' }), finding({ operation: 'getTransaction' })])], { now: NOW });
    expect(report.groups).toHaveLength(5);
  });

  it('one exchange showing a finding at many items counts once', async () => {
    const report = await buildReport([entry(1, [finding({ path: '/data/items/*/x' }), finding({ path: '/data/items/*/x', seen: 'string "b"' })])], { now: NOW });
    expect(report.groups[0]).toMatchObject({ count: 1, entry_ids: [1], samples: ['string "1000"', 'string "b"'] });
  });

  it('keeps the last 5 entry ids and the first 5 distinct samples', async () => {
    const entries = Array.from({ length: 8 }, (_, i) => entry(i + 1, [finding({ seen: `string "${i % 7}"` })]));
    const [group] = (await buildReport(entries, { now: NOW })).groups;
    expect(group?.count).toBe(8);
    expect(group?.entry_ids).toEqual([4, 5, 6, 7, 8]);
    expect(group?.samples).toEqual(['string "0"', 'string "1"', 'string "2"', 'string "3"', 'string "4"']);
  });

  it('reads an async iterable as the journal gives it', async () => {
    async function* journal() {
      yield entry(1, [finding()]);
      yield entry(2, [finding()]);
    }
    expect((await buildReport(journal(), { now: NOW })).groups[0]?.count).toBe(2);
  });
});

describe('order: worst first', () => {
  it('severity, then count, then operation and path', async () => {
    const report = await buildReport([
      entry(1, [finding({ kind: 'unknown-field', severity: 'info', path: '/data/a' }), finding({ kind: 'format', severity: 'warning', path: '/data/b' })]),
      entry(2, [finding({ kind: 'format', severity: 'warning', path: '/data/c' }), finding({ kind: 'format', severity: 'warning', path: '/data/b' })]),
      entry(3, [finding({ path: '/data/z' }), finding({ operation: 'activate3ds', path: '/data/z' }), finding({ path: '/data/y' })]),
    ], { now: NOW });
    expect(report.groups.map((g) => `${g.severity} ${g.count} ${g.operation} ${g.path}`)).toEqual([
      'error 1 activate3ds /data/z', 'error 1 createInvoice /data/y', 'error 1 createInvoice /data/z',
      'warning 2 createInvoice /data/b', 'warning 1 createInvoice /data/c', 'info 1 createInvoice /data/a',
    ]);
  });
});

describe('--since and --operation', () => {
  it('--since leaves out exchanges before it, and they are not counted as read', async () => {
    const report = await buildReport([entry(1, [finding({ path: '/old' })]), entry(5, [finding()])], { now: NOW, since: new Date(entry(3, []).at) });
    expect(report.entries).toBe(1);
    expect(report.groups.map((g) => g.path)).toEqual(['/data/total_price_cents']);
    expect(report.since).toBe(entry(3, []).at);
  });

  it('--operation keeps that operation\'s findings only', async () => {
    const report = await buildReport([entry(1, [finding({ operation: 'getTransaction' })]), entry(2, [finding()])], { now: NOW, operation: 'getTransaction' });
    expect(report.groups.map((g) => g.operation)).toEqual(['getTransaction']);
    expect(report).toMatchObject({ entries: 2, entries_with_findings: 1, operation: 'getTransaction' });
  });
});

describe('--accept', () => {
  const both = [entry(1, [finding(), finding({ kind: 'null', severity: 'warning', path: '/data/due_date' })])];

  it('an accepted group does not count and carries its reason; the summary says so', async () => {
    const report = await buildReport(both, { now: NOW, accept: rules([{ operation: 'createInvoice', kind: 'type', path: '/data/total_price_cents', reason: 'gateway ticket #12', until: '2026-12-31' }]) });
    expect(report.groups[0]).toMatchObject({ kind: 'type', state: 'accepted', acceptance: { reason: 'gateway ticket #12', until: '2026-12-31' } });
    expect(report.summary).toEqual({ counted: { error: 0, warning: 1, info: 0 }, accepted: { error: 1, warning: 0, info: 0 }, expired: { error: 0, warning: 0, info: 0 } });
    expect(failing(report, 'error')).toEqual([]);
    expect(failing(report, 'warning').map((g) => g.kind)).toEqual(['null']);
  });

  it('a day holds through its end (UTC); past it the group counts again, marked expired', async () => {
    const accept = rules([{ operation: 'createInvoice', kind: 'type', path: '/data/total_price_cents', reason: 'known', until: '2026-11-30' }]);
    const lastMoment = await buildReport(both, { now: new Date('2026-11-30T23:59:59.999Z'), accept });
    expect(lastMoment.groups[0]?.state).toBe('accepted');
    const report = await buildReport(both, { now: NOW, accept });
    expect(report.groups[0]).toMatchObject({ state: 'expired', acceptance: { reason: 'known', until: '2026-11-30' } });
    expect(report.summary.counted.error).toBe(1);
    expect(report.summary.expired.error).toBe(1);
    expect(failing(report, 'error')).toHaveLength(1);
  });

  it('a date-time until is an instant; of two matching entries the one that holds longest wins', async () => {
    const accept = rules([
      { operation: 'createInvoice', kind: 'type', path: '/data/total_price_cents', reason: 'old', until: '2026-12-01T11:00:00Z' },
      { operation: 'createInvoice', kind: 'type', path: '/data/total_price_cents', reason: 'renewed', until: '2026-12-01T13:00:00-00:00' },
    ]);
    expect((await buildReport(both, { now: NOW, accept })).groups[0]).toMatchObject({ state: 'accepted', acceptance: { reason: 'renewed' } });
  });

  it('an entry for another path or kind accepts nothing', async () => {
    const report = await buildReport(both, { now: NOW, accept: rules([{ operation: 'createInvoice', kind: 'type', path: '/data/other', reason: 'x', until: '2027-01-01' }]) });
    expect(report.groups.every((g) => g.state === 'counted')).toBe(true);
  });

  it('--fail-on never fails nothing; info fails everything counted', async () => {
    const report = await buildReport([entry(1, [finding({ kind: 'extra-header', severity: 'info', path: 'headers.x-a' })])], { now: NOW });
    expect(failing(report, 'never')).toEqual([]);
    expect(failing(report, 'warning')).toEqual([]);
    expect(failing(report, 'info')).toHaveLength(1);
  });
});

describe('the accept file, checked', () => {
  const good = { operation: 'createInvoice', kind: 'type', path: '/data/x', reason: 'known', until: '2026-12-31' };
  const problem = (value: unknown) => {
    try {
      rules(value);
    } catch (error) {
      expect(error).toBeInstanceOf(InputError);
      return (error as Error).message;
    }
    throw new Error('no error');
  };

  it('a bad until is named by its JSON path, with the file', () =>
    expect(problem([good, good, { ...good, until: '31/12/2026' }])).toBe('--accept accept.json: a member is not valid:\n  [2].until: must be a date YYYY-MM-DD (a day in UTC) or an ISO 8601 date-time with its zone (2026-12-31T12:00:00Z)'));

  it('a day the month lacks is refused', () => expect(problem([{ ...good, until: '2026-02-30' }])).toMatch(/^--accept accept\.json: .*\n {2}\[0\]\.until: must be a date/));

  it('an unknown kind is named with the list of kinds', () =>
    expect(problem([{ ...good, kind: 'typo' }])).toMatch(/\[0\]\.kind: must be one of the finding kinds: unknown-field, extra-header, new-value, format, null, type, missing-field, status-code, error-shape, not-json, request; or, for drift --against, types-differ, only-production, status-only-production, only-serve, status-only-serve$/));

  it('an unknown operation is named, with the one it was probably meant to be', () =>
    expect(problem([{ ...good, operation: 'createInvoce' }])).toMatch(/\[0\]\.operation: "createInvoce" is not an operation; did you mean createInvoice\? \(one of createInvoice, /));

  it('a missing reason, an unknown member, several problems at once', () => {
    const { reason: _, ...noReason } = good;
    expect(problem([noReason, { ...good, owner: 'me' }])).toBe('--accept accept.json: 2 members are not valid:\n  [0].reason: must say why the drift is accepted\n  [1]: Unrecognized key: "owner"');
  });

  it('not an array, not JSON', () => {
    expect(problem({ ...good })).toBe('--accept accept.json: must hold a JSON array of {operation, kind, path, reason, until}');
    expect(() => parseAcceptText('[{"operation": ', 'accept.json')).toThrow(/^--accept accept\.json: not valid JSON: /);
  });
});

describe('docs/proxy.md', () => {
  it('the accept file shown there is one the command takes', () => {
    const [sample] = readmeBlocks({ file: 'docs/proxy.md', heading: '### The accept file' }, 'json');
    expect(parseAcceptText(sample ?? '', 'docs/proxy.md').map((rule) => [rule.operation, rule.kind, rule.path])).toEqual([
      ['searchTransaction', 'unknown-field', '/antifraud'], ['searchTransaction', 'format', '/createdAt'],
    ]);
  });
});
