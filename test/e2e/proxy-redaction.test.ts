// What the proxy keeps of a card charge sent through it to production (contract, "Production through a
// proxy", "Journal"): redacted before storage as serve's journal is, so the journal file's bytes and
// its write-ahead log, read while the proxy runs and after it stopped, hold no full card number, no
// security code and no bearer token; nor do the proxy's own output, its API's answers or `pinvoice
// logs list|show|tail --journal` on the file. The token's hint is kept. The files are the owner's alone.
import { existsSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, start } from '../support/cli.js';
import { ENGINE } from '../support/engine.js';
import { pixBody, removeWorkDirs } from '../support/processes.js';
import { entryOf, own, raw, rig, stopProxies, type Rig } from '../support/proxy.js';
import { eventually } from '../support/receiver.js';
import { holding, storedTexts } from '../support/stored.js';

const CARD = '4111111111111111';
const CODE = '8642';
const HINT = (token: string) => `${token.slice(0, 8)}…${token.slice(-4)}`;

afterAll(async () => {
  await stopProxies();
  removeWorkDirs();
});

describe.runIf(ENGINE === 'sqlite')('the proxy keeps no card data and no token', () => {
  let r: Rig;
  let entryId: number;
  beforeAll(async () => {
    r = await rig(true, ['--allow-writes']);
    r.gateway.createAnswer = 'full';
    const body = pixBody({
      method: 'credit_card',
      card: { number: CARD, first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', security_code: CODE, installment: 1 },
    });
    const got = await raw(`${r.proxy.url}/api/v2/invoices`, { method: 'POST', headers: { ...r.auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(got.status).toBe(200);
    const received = JSON.parse(r.gateway.requests.at(-1)!.body);
    expect(received.card, 'production gets the card as sent').toMatchObject({ number: CARD, security_code: CODE });
    entryId = got.entry;
    await entryOf(r.proxy, entryId);
  });
  afterAll(() => r?.close());

  const secrets = () => [CARD, CODE, r.gateway.token, '"security_code"'];

  /** The journal's files, read as a leak would be found in them; each secret absent, the masked card and the hint there. */
  async function fileHoldsNoSecret(when: string) {
    const kept = await storedTexts(r.journal);
    for (const secret of secrets()) expect(holding(kept, secret), `${when}: ${secret} in the journal's files`).toEqual([]);
    // and they were read: the file, the bodies in it, the token's hint
    expect(kept.map(({ where }) => where), `${when}: the journal's file was read`).toContain('production.db');
    expect(holding(kept, '411111******1111').length, `${when}: the bodies were read`).toBeGreaterThan(0);
    expect(holding(kept, HINT(r.gateway.token)).length, `${when}: the token's hint is kept`).toBeGreaterThan(0);
  }

  it('keeps no card number, security code or token in the journal file or its -wal while the proxy runs', async () => {
    expect(existsSync(`${r.journal}-wal`), 'a write-ahead log to read').toBe(true);
    await fileHoldsNoSecret('running');
  });

  it("shows none in its own API's answers, the entry's hint and masked card there", async () => {
    const answers = [await own(r.proxy, '/requests'), await own(r.proxy, `/requests/${entryId}`), await own(r.proxy, '/requests/find', { method: 'POST', body: { method: 'POST' } })];
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      for (const secret of [CARD, r.gateway.token, '"security_code"']) expect(answer.text).not.toContain(secret);
      expect(answer.text).not.toMatch(new RegExp(`(?<![\\w.])${CODE}(?![\\w.])`));
    }
    const entry = answers[1]!.body;
    expect(entry.body.card.number).toBe('411111******1111');
    expect(entry.token_hint).toBe(HINT(r.gateway.token));
  });

  it('keeps the journal owner-only: files 0600, the folder it made 0700', () => {
    for (const file of [r.journal, `${r.journal}-wal`].filter(existsSync)) expect((statSync(file).mode & 0o777).toString(8), file).toBe('600');
    expect((statSync(dirname(r.journal)).mode & 0o777).toString(8)).toBe('700');
  });

  it('prints none, and `pinvoice logs list|show --journal` read the entries without them', async () => {
    const list = await run(['logs', 'list', '--journal', r.journal], { env: r.env });
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain('/api/v2/invoices');
    expect(list.stdout).toContain('POST');
    const show = await run(['logs', 'show', String(entryId), '--journal', r.journal], { env: r.env });
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toContain('411111******1111');
    const asJson = await run(['logs', 'list', '--journal', r.journal, '--json'], { env: r.env });
    expect(asJson.code, asJson.stderr).toBe(0);
    expect(asJson.stdout).toContain(HINT(r.gateway.token));
    for (const output of [list.stdout, list.stderr, show.stdout, show.stderr, asJson.stdout, r.proxy.stdout(), r.proxy.stderr()]) {
      for (const secret of [CARD, r.gateway.token, 'security_code']) expect(output).not.toContain(secret);
    }
  });

  it('follows the journal file with `pinvoice logs tail --journal`', async () => {
    const tail = start(['logs', 'tail', '--journal', r.journal], r.env);
    try {
      // the tail shows what is written after it started: read a charge until its line shows
      const record = r.gateway.addRecord();
      await eventually(async () => {
        await raw(`${r.proxy.url}/api/v2/invoices/${record.id}`, { headers: r.auth });
        return tail.lines().some((line) => line.includes(`/api/v2/invoices/${record.id}`));
      }, 10_000, 'the tail to show the read');
      for (const secret of [CARD, r.gateway.token]) expect(tail.lines().join('\n')).not.toContain(secret);
    } finally {
      await tail.stop('SIGINT');
    }
  });

  it('still keeps none once the proxy has stopped (exit 0)', async () => {
    expect(await r.proxy.stop('SIGTERM')).toBe(0);
    await fileHoldsNoSecret('stopped');
    for (const output of [r.proxy.stdout(), r.proxy.stderr()]) for (const secret of [CARD, r.gateway.token]) expect(output).not.toContain(secret);
  });
});
