// The proxy's journal is bounded (--journal-max N: the newest N kept, the oldest dropped first and
// counted in `dropped`, the ids going on), its flags are checked before anything listens, and a
// write names its entry before the entry is written (Pinvoice-Proxy-Entry is the id the journal gives).
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/engine.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { removeWorkDirs } from '../support/processes.js';
import { ENTRY, entryOf, own, raw, rig, stopProxies, type Rig } from '../support/proxy.js';

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

describe.runIf(ENGINE === 'sqlite')('the proxy journal bound', () => {
  let setup: Rig;
  beforeAll(async () => {
    setup = await rig(false, ['--journal-max', '3']);
  });
  afterAll(() => setup.close());

  it('keeps the newest --journal-max entries, counts the dropped ones, and its ids go on', async () => {
    const record = setup.gateway.addRecord();
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await raw(`${setup.proxy.url}/api/v2/invoices?id=${record.id}`, { headers: setup.auth });
      expect(answer.status).toBe(200);
      ids.push(Number(answer.headers[ENTRY]));
    }
    expect(ids).toEqual([1, 2, 3, 4, 5]);
    const page = await own(setup.proxy, '/requests');
    expect(page.body.data.map((entry: { id: number }) => entry.id)).toEqual([3, 4, 5]);
    expect(page.body.dropped).toBe(2);
    const gone = await own(setup.proxy, '/requests/1');
    expect(gone.status).toBe(404);
    expect(gone.body.message).toContain('--journal-max');
  });

  it("answers GET /_pinvoice/drift with the report of the journal's window, behind the inspector token", async () => {
    const report = await own(setup.proxy, '/drift');
    expect(report.status).toBe(200);
    expect(report.body.entries).toBe(3);
    // the stand-in's records: six fraction digits on every timestamp
    expect(report.body.groups).toEqual(expect.arrayContaining([expect.objectContaining({ operation: 'searchTransaction', kind: 'format', path: '/createdAt', count: 3, entry_ids: [3, 4, 5] })]));
    const refused = await fetch(`${setup.proxy.url}/_pinvoice/drift`);
    expect(refused.status).toBe(401);
  });

  it("names the charge a record's answer is of, and no charge for Company Infos' {data: {id}}", async () => {
    const record = setup.gateway.addRecord();
    const read = await raw(`${setup.proxy.url}/api/v2/invoices?id=${record.id}`, { headers: setup.auth });
    const company = await raw(`${setup.proxy.url}/api/v2/company`, { headers: setup.auth });
    expect(company.status).toBe(200);
    expect((await entryOf(setup.proxy, Number(read.headers[ENTRY]))).invoice_ids).toEqual([record.id]);
    expect((await entryOf(setup.proxy, Number(company.headers[ENTRY]))).invoice_ids).toEqual([]);
  });
});

describe.runIf(ENGINE === 'sqlite')('pinvoice proxy refuses bad flags before it listens (exit 2, naming the flag)', () => {
  const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'proxy', ...args], { env: cleanEnv({}), encoding: 'utf8', timeout: 15_000 });
  it.each([
    [['--to', 'ftp://gateway.example'], '--to'],
    [['--to', 'https://gateway.example/some/path'], 'origin only'],
    [['--to', 'https://gateway.example', '--max-amount', '10'], '--allow-writes'],
    [['--to', 'https://gateway.example', '--allow-writes', '--max-amount', '10,5,0'], '--max-amount'],
    [['--to', 'https://gateway.example', '--journal-max', '0'], '--journal-max'],
    [['--to', 'https://gateway.example', '--journal-max-bytes', '1KB'], '--journal-max-bytes'],
    [[], '--to'],
  ])('%j', (args, named) => {
    const result = run(...args);
    expect(result.status, result.stderr).toBe(2);
    expect(result.stderr).toContain(named);
    expect(result.stdout).toBe('');
  });
});
