// `pinvoice serve --fixtures FILE`, the built binary on the run's engine: the example file's charges
// looked up with `invoice get` under the tokens it gives, a second start that adds nothing, and files
// refused with exit 2 before anything is written.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome } from '../support/cli.js';
import { ENGINE } from '../support/server.js';

const EXAMPLE = new URL('../../examples/fixtures.json', import.meta.url).pathname;
const SHOP = 'pinv_test_fixture_shop_0000000001';
const SECOND = 'pinv_test_fixture_second_000000002';
const work = mkdtempSync(join(tmpdir(), 'pinvoice-fixtures-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const settle = () => new Promise((resolve) => setTimeout(resolve, 100));

describe('pinvoice serve --fixtures', () => {
  it('loads the example file once: invoice get finds its charges by external_id with the tokens it gives', async () => {
    const home = tempHome();
    const db = join(work, 'example.db');
    const server = await serve(['--port', '0', '--db', db, '--fixtures', EXAMPLE, '--postback-attempts', '1'], home);
    const get = (ref: string, token: string) => run(['invoice', 'get', ref, '--json'], { env: { ...home, PINVOICE_TOKEN: token, PINVOICE_BASE_URL: server.url } });
    try {
      await settle();
      expect(server.stderr()).toContain(`--fixtures ${EXAMPLE}: 2 companies and 19 charges created\n`);
      const partial = await get('card-partially-refunded', SHOP);
      expect(partial.code, partial.stderr).toBe(0);
      const record = JSON.parse(partial.stdout);
      expect([record.status, record.amount, record.refundedAmount, record.externalRef]).toEqual(['paid', 9000, 4500, 'card-partially-refunded']);
      expect(record.timeline.map((t: any) => t.status)).toEqual(['paid', 'paid']);
      const other = await get('order-2001', SECOND);
      expect(other.code, other.stderr).toBe(0);
      expect([JSON.parse(other.stdout).status, JSON.parse(other.stdout).metadata]).toEqual(['paid', { channel: 'web' }]);
      // a charge of one company is not found with the other's token
      expect((await get('order-2001', SHOP)).code).toBe(4);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    const again = await serve(['--port', '0', '--db', db, '--fixtures', EXAMPLE], home);
    try {
      await settle();
      expect(again.stderr()).toContain(`--fixtures ${EXAMPLE}: 0 companies and 0 charges created; 21 were already in the database, left as they are\n`);
      const list = await run(['invoice', 'list', '--all', '--json'], { env: { ...home, PINVOICE_TOKEN: SHOP, PINVOICE_BASE_URL: again.url } });
      expect(list.code, list.stderr).toBe(0);
      expect(JSON.parse(list.stdout).length).toBe(18);
    } finally {
      await again.stop();
    }
  });

  it('refuses a bad file with exit 2, naming each JSON path, before the database is opened', async () => {
    const file = join(work, 'bad.json');
    writeFileSync(file, JSON.stringify({ companies: [{ token: 'short' }], charges: [{ external_id: 'a', state: 'payed', method: 'pix', amount: 100 }] }));
    const db = join(work, 'never.db');
    const result = await run(['serve', '--port', '0', '--db', db, '--fixtures', file]);
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      `pinvoice: --fixtures ${file}: nothing was loaded, the file has 2 problems:\n` +
        '  companies[0].token: must be at least 16 printable characters without spaces\n' +
        '  charges[0].state: "payed" is not a state; did you mean paid?\n',
    );
    if (ENGINE === 'sqlite') expect(existsSync(db)).toBe(false);
  });

  it('says what is wrong with a file that cannot be read or is not JSON (exit 2)', async () => {
    const broken = join(work, 'broken.json');
    writeFileSync(broken, '{"charges": [');
    const notJson = await run(['serve', '--port', '0', '--db', ':memory:', '--fixtures', broken]);
    expect([notJson.code, notJson.stderr]).toEqual([2, expect.stringMatching(new RegExp(`^pinvoice: --fixtures ${broken}: not valid JSON: `))]);
    const missing = await run(['serve', '--port', '0', '--db', ':memory:', '--fixtures', join(work, 'nope.json')]);
    expect([missing.code, missing.stderr]).toEqual([2, `pinvoice: --fixtures: ${join(work, 'nope.json')} does not exist\n`]);
  });
});
