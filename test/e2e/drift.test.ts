// `pinvoice drift --journal FILE`, the built binary on a proxy's journal file written through the
// proxy's own journal (src/proxy/journal.ts): its exit codes, --fail-on, --accept (an expired
// acceptance counts again), --since, --operation, each format, and bad input named in the user's terms.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DriftReport } from '../../src/api/drift.js';
import type { Finding } from '../../src/api/findings.js';
import { openJournalForWriting, PROXY_COMPANY } from '../../src/proxy/journal.js';
import { run, start, tempHome } from '../support/cli.js';
import { finding } from '../support/drift.js';
import { startProductionGateway } from '../support/production-gateway.js';

const work = mkdtempSync(join(tmpdir(), 'pinvoice-drift-'));
const journal = join(work, 'prod.journal');
const home = tempHome();
const drift = (...args: string[]) => run(['drift', '--journal', journal, '--utc', ...args], { env: home });

/** 2026-11-20 at this hour, UTC, in ms. */
const hour = (h: number) => Date.UTC(2026, 10, 20, h);

async function writeJournal(entries: { at: number; findings: Finding[] }[]): Promise<void> {
  const store = openJournalForWriting(journal, () => undefined);
  await store.append(entries.map(({ at, findings }) => ({
    company_id: PROXY_COMPANY, at, sandbox_at: at, direction: 'in', method: 'POST', path: '/api/v2/invoices', status: 201, invoice_id: null,
    duration_ms: 12, request_body: null, response_body: null, detail: JSON.stringify({ upstream: { status: 201, duration_ms: 11 }, findings }),
  })), 10_000);
  await store.close();
}

const typeError = finding();
const nullWarning = finding({ kind: 'null', severity: 'warning', path: '/data/due_date', expected: 'string', seen: 'null' });
const unknownInfo = finding({ operation: 'getTransaction', kind: 'unknown-field', severity: 'info', path: '/data/acquirer', expected: 'no such member', seen: 'string "x"' });

const acceptFile = (name: string, body: unknown) => {
  const file = join(work, name);
  writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
  return file;
};
const acceptError = { operation: 'createInvoice', kind: 'type', path: '/data/total_price_cents', reason: 'gateway ticket 12', until: '2999-12-31' };
const expiredWarning = { operation: 'createInvoice', kind: 'null', path: '/data/due_date', reason: 'null before the boleto', until: '2026-11-30' };

beforeAll(async () => {
  await writeJournal([
    { at: hour(1), findings: [typeError, nullWarning] },
    { at: hour(2), findings: [] },
    { at: hour(3), findings: [typeError, unknownInfo] },
  ]);
});

describe('pinvoice drift', () => {
  it('an error group fails the run with exit 15; the text report is on stdout, the verdict on stderr', async () => {
    const result = await drift();
    expect(result.code, result.stderr).toBe(15);
    const blocks = result.stdout.trimEnd().split('\n\n');
    expect(blocks[0]).toBe('3 exchanges read, 2 with findings: 3 groups count (1 error, 1 warning, 1 info)');
    expect(blocks[1]).toMatch(/^ERROR {2}type {2}createInvoice answer \/data\/total_price_cents {2}×2\n {2}expected {4}integer\n[\s\S]*first seen {2}2026-11-20 01:00:00 UTC\n {2}last seen {3}2026-11-20 03:00:00 UTC\n {2}entries {5}1, 3$/);
    expect(blocks.slice(2).map((block) => block.split('\n')[0])).toEqual(['WARNING  null  createInvoice answer /data/due_date  ×1', 'INFO  unknown-field  getTransaction answer /data/acquirer  ×1']);
    expect(result.stderr).toBe('pinvoice: 1 group at or above error fails the run\n');
  });

  it('--fail-on: warning fails on the warning too, never fails nothing', async () => {
    expect((await drift('--fail-on', 'warning')).stderr).toBe('pinvoice: 2 groups at or above warning fail the run\n');
    const never = await drift('--fail-on', 'never');
    expect(never.code, never.stderr).toBe(0);
    expect(never.stderr).toBe('');
  });

  it('--accept: the accepted error no longer counts (exit 0); the expired acceptance counts again and is said to have expired', async () => {
    const accepted = await drift('--accept', acceptFile('accept.json', [acceptError, expiredWarning]));
    expect(accepted.code, accepted.stderr).toBe(0);
    expect(accepted.stdout).toMatch(/^3 exchanges read, 2 with findings: 2 groups count \(1 warning, 1 info\); 1 accepted; 1 acceptance expired \(counted again\)\n/);
    expect(accepted.stdout).toContain('\n  accepted until 2999-12-31: gateway ticket 12\n');
    expect(accepted.stdout).toContain('\n  acceptance expired (until 2026-11-30), counted again: null before the boleto\n');
    expect(accepted.stderr).toBe('pinvoice: null at createInvoice answer /data/due_date: acceptance expired (until 2026-11-30), counted again: null before the boleto\n');
    const strict = await drift('--accept', acceptFile('accept.json', [acceptError, expiredWarning]), '--fail-on', 'warning');
    expect(strict.code).toBe(15);
    expect(strict.stderr).toMatch(/pinvoice: 1 group at or above warning fails the run\n$/);
  });

  it('--json (and --format json): the report in the documented shape', async () => {
    for (const flags of [['--json'], ['--format', 'json']]) {
      const result = await drift(...flags, '--fail-on', 'never');
      expect(result.code, result.stderr).toBe(0);
      const report = DriftReport.strict().parse(JSON.parse(result.stdout));
      expect(report.groups.map((g) => [g.kind, g.count, g.entry_ids, g.first_seen])).toEqual([
        ['type', 2, [1, 3], '2026-11-20T01:00:00.000Z'], ['null', 1, [1], '2026-11-20T01:00:00.000Z'], ['unknown-field', 1, [3], '2026-11-20T03:00:00.000Z'],
      ]);
    }
  });

  it('--since and --operation narrow the report', async () => {
    const since = JSON.parse((await drift('--json', '--since', '2026-11-20T02:00:00Z', '--fail-on', 'never')).stdout) as DriftReport;
    expect(since).toMatchObject({ since: '2026-11-20T02:00:00.000Z', entries: 2, entries_with_findings: 1 });
    expect(since.groups.map((g) => [g.kind, g.count])).toEqual([['type', 1], ['unknown-field', 1]]);
    const recent = await drift('--since', '24h');
    expect(recent.code, recent.stderr).toBe(0);
    expect(recent.stdout).toMatch(/^0 exchanges read \(since \d{4}-[\d:T.-]+Z\), 0 with findings: no drift\n$/);
    const one = JSON.parse((await drift('--json', '--operation', 'getTransaction')).stdout) as DriftReport;
    expect(one.groups.map((g) => g.operation)).toEqual(['getTransaction']);
  });

  it('--format markdown and junit: a table for a PR, XML a CI server reads, failing as the exit code does', async () => {
    const markdown = await drift('--format', 'markdown');
    expect(markdown.code).toBe(15);
    expect(markdown.stdout).toMatch(/^## Drift report\n\n3 exchanges read[\s\S]*\n\| \*\*🔴 error\*\* \| `type` \| `createInvoice` \| answer \| `\/data\/total_price_cents` \| 2 \|/);
    const junit = await drift('--format', 'junit', '--accept', acceptFile('accept.json', [acceptError, expiredWarning]), '--fail-on', 'warning');
    expect(junit.code).toBe(15);
    const checked = spawnSync('python3', ['-c', 'import sys, xml.etree.ElementTree as ET; r = ET.fromstring(sys.stdin.buffer.read()); print(r.get("tests"), r.get("failures"), len(r.findall(".//failure")))'], { input: junit.stdout, encoding: 'utf8' });
    expect(checked.stdout, checked.stderr).toBe('3 1 1\n');
  });

  it('bad input is exit 2 with the file and what is wrong named; nothing on stdout', async () => {
    const cases: [string[], RegExp][] = [
      [['--accept', acceptFile('bad.json', [acceptError, { ...acceptError, until: 'soon' }])], /^pinvoice: --accept \S+bad\.json: a member is not valid: \[1\]\.until: must be a date YYYY-MM-DD/],
      [['--accept', acceptFile('kind.json', [{ ...acceptError, kind: 'typ' }])], /\[0\]\.kind: must be one of the finding kinds: unknown-field, /],
      [['--accept', acceptFile('broken.json', '[{')], /^pinvoice: --accept \S+broken\.json: not valid JSON/],
      [['--accept', join(work, 'absent.json')], /^pinvoice: --accept: \S+absent\.json does not exist/],
      [['--operation', 'getTransacton'], /^pinvoice: --operation: "getTransacton" is not an operation; did you mean getTransaction\?/],
      [['--since', 'last week'], /^pinvoice: --since: "last week" must be a duration back from now/],
      [['--fail-on', 'fatal'], /^pinvoice: --fail-on: "fatal" is invalid: allowed choices are error, warning, info, never/],
      [['--json', '--format', 'junit'], /^pinvoice: --json and --format junit ask for two formats: give one/],
    ];
    for (const [flags, message] of cases) {
      const result = await drift(...flags);
      expect([result.code, result.stdout], flags.join(' ')).toEqual([2, '']);
      expect(result.stderr.replace(/\n\s*/g, ' ')).toMatch(message);
    }
  });

  it('a journal that is missing, a folder or not a journal: exit 2 naming the file', async () => {
    const notJournal = acceptFile('notes.txt', 'not a journal');
    const cases: [string, RegExp][] = [
      [join(work, 'absent.journal'), /^pinvoice: --journal: \S+absent\.journal does not exist\n$/],
      [work, /^pinvoice: --journal: \S+ is a folder, not a file\n$/],
      [notJournal, /^pinvoice: --journal: \S+notes\.txt cannot be read as a pinvoice proxy journal: it is not a SQLite database\n$/],
    ];
    for (const [file, message] of cases) {
      const result = await run(['drift', '--journal', file], { env: home });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(message);
    }
    const missing = await run(['drift'], { env: home });
    expect([missing.code, missing.stderr]).toEqual([2, 'pinvoice: --journal is required (--journal <file>)\n(run with --help for usage)\n']);
  });
});

describe('pinvoice drift on the journal of a running pinvoice proxy in front of the production stand-in', () => {
  const file = join(work, 'proxied.journal');
  const report = (...args: string[]) => run(['drift', '--journal', file, ...args], { env: home });
  let gateway: Awaited<ReturnType<typeof startProductionGateway>>;
  beforeAll(async () => {
    gateway = await startProductionGateway();
  });
  afterAll(() => gateway.close());

  /** The report as JSON, asked again until it has read `entries` exchanges (the proxy writes its journal in batches). */
  async function reportOnceItHas(entries: number): Promise<DriftReport> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const result = await report('--json', '--fail-on', 'never');
      const read = result.code === 0 ? DriftReport.strict().parse(JSON.parse(result.stdout)) : undefined;
      if (read?.entries === entries) return read;
      if (Date.now() > deadline) throw new Error(`the report never read ${entries} exchanges: ${result.code} ${result.stdout} ${result.stderr}`);
    }
  }

  it('groups what the proxy found, with the entry ids its answers carried; --accept and its expiry on the same journal', async () => {
    const proxy = start(['proxy', '--to', gateway.url, '--port', '0', '--journal', file], home);
    const ids: Record<string, number[]> = { clean: [], drifted: [] };
    try {
      const url = (await proxy.waitForLine((line) => line.startsWith('listening on '))).slice('listening on '.length);
      // production as the stand-in sends it (Carbon's 6 fraction digits), and one record with its amount as a string
      const clean = gateway.addRecord();
      const drifted = gateway.addRecord({ amount: '15990' });
      for (const [name, id] of [['clean', clean.id], ['clean', clean.id], ['drifted', drifted.id]] as const) {
        const answer = await fetch(`${url}/api/v2/invoices/${String(id)}`, { headers: { authorization: `Bearer ${gateway.token}` } });
        expect(answer.status).toBe(200);
        await answer.arrayBuffer();
        ids[name]?.push(Number(answer.headers.get('pinvoice-proxy-entry')));
      }
      // read while the proxy runs and writes
      expect((await reportOnceItHas(3)).entries_with_findings).toBe(3);
    } finally {
      expect(await proxy.stop()).toBe(0);
    }
    const failed = await report('--json');
    expect(failed.code, failed.stderr).toBe(15);
    expect(failed.stderr).toBe('pinvoice: 1 group at or above error fails the run\n');
    const groups = DriftReport.strict().parse(JSON.parse(failed.stdout)).groups;
    expect(groups[0]).toMatchObject({ operation: 'getTransaction', direction: 'answer', kind: 'type', severity: 'error', path: '/amount', count: 1, entry_ids: ids.drifted, state: 'counted' });
    // one group per path: the record's own times and its client's are apart
    expect(groups.filter((g) => g.kind === 'format').map((g) => g.path)).toEqual(expect.arrayContaining(['/createdAt', '/client/created_at']));
    expect(groups.find((g) => g.path === '/createdAt')).toMatchObject({ kind: 'format', severity: 'warning', count: 3, entry_ids: [...(ids.clean ?? []), ...(ids.drifted ?? [])], samples: ['timestamp, 6 fraction digits'] });

    const known = { operation: 'getTransaction', kind: 'type', path: '/amount', reason: 'string amounts on old records', until: '2999-01-01' };
    expect((await report('--accept', acceptFile('proxied-accept.json', [known]))).code).toBe(0);
    const expired = await report('--accept', acceptFile('proxied-expired.json', [{ ...known, until: '2026-01-01' }]));
    expect(expired.code).toBe(15);
    expect(expired.stderr).toContain('pinvoice: type at getTransaction answer /amount: acceptance expired (until 2026-01-01), counted again: string amounts on old records\n');
  });
});
