// The proxy's checks against the contract (contract, "Production through a proxy", "Checks"): every
// planted drift of test/support/planted-drifts.ts, sent through the built proxy over HTTP and HTTPS,
// gives its journal entry the findings it must (kind, severity, operation, direction, pointer), and
// every clean exchange none at all. The answer passes back as it came, whatever the checks found.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/engine.js';
import { CLEAN, PLANTED, type Planted } from '../support/planted-drifts.js';
import { removeWorkDirs } from '../support/processes.js';
import { entryOf, raw, rig, stopProxies, type Rig } from '../support/proxy.js';

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

describe.runIf(ENGINE === 'sqlite').each([['http', false], ['https', true]] as const)('findings over %s', (_name, tls) => {
  let r: Rig;
  beforeAll(async () => {
    r = await rig(tls, ['--allow-writes']);
  });
  afterAll(() => r?.close());

  /** Sends the item through the proxy; its journal entry. */
  async function through(item: Planted) {
    r.gateway.plant({ method: item.method, path: item.path, answer: item.answer });
    const body = item.body === undefined ? undefined : JSON.stringify(item.body);
    const got = await raw(`${r.proxy.url}${item.path}`, {
      method: item.method,
      headers: { ...r.auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body }),
    });
    expect(got.status, 'the answer passes back as it came').toBe(item.answer.status);
    expect(r.gateway.answers.at(-1)!.url, 'the planted answer was the one sent').toBe(item.path);
    return entryOf(r.proxy, got.entry);
  }

  it.each(PLANTED.map((item) => [item.name, item] as const))('%s', async (_label, item) => {
    const entry = await through(item);
    const seen = (entry.findings ?? []).map(({ kind, severity, operation, direction, path, status }: any) => ({ kind, severity, operation, direction, path, status }));
    const wanted = item.expect.map((finding) => ({ ...finding, status: item.answer.status }));
    expect(seen, `findings of ${item.method} ${item.path}`).toEqual(expect.arrayContaining(wanted));
    for (const finding of entry.findings) {
      expect(typeof finding.expected).toBe('string');
      expect(typeof finding.seen).toBe('string');
    }
    // volatile values are shown by their shape only, never as they were
    expect(JSON.stringify(entry.findings.map((finding: any) => finding.seen))).not.toMatch(/2026-11-25T23:38:17\.443211Z|2026-11-25T20:38:17\.512-03:00/);
  });

  it.each(CLEAN.map((item) => [item.name, item] as const))('no finding for %s', async (_label, item) => {
    const entry = await through(item);
    expect(entry.findings, `findings of ${item.method} ${item.path}`).toEqual([]);
  });

  it('checks each answer of one request line for what it is: a record polled clean, then drifted, then clean again', async () => {
    const clean = CLEAN.find((item) => item.name.startsWith('a pix record with every member')) as Planted;
    const drifted = PLANTED.find((item) => item.name.startsWith('new-value: a status we do not know')) as Planted;
    const line = { ...clean, path: '/api/v2/invoices?id=5201' };
    const kinds = async (item: Planted) => ((await through({ ...item, path: line.path })).findings as { kind: string }[]).map((finding) => finding.kind);
    expect(await kinds(line)).toEqual([]);
    expect(await kinds(line)).toEqual([]);
    expect(await kinds(drifted)).toContain('new-value');
    expect(await kinds(line)).toEqual([]);
  });
});
