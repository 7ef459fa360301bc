// A payload with fields the API does not know (`postback`, `payer.emial`): the built binary refuses it
// before sending, naming each with what was meant; --allow-unknown-fields sends it and warns with what
// the gateway said it ignored (Pinvoice-Ignored-Fields); a batch fails only that line. Against a real
// `pinvoice serve`, on each engine; what was created is read back through the API.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_e2e_unknown_fields_0001';
const work = mkdtempSync(join(tmpdir(), 'pinvoice-unknown-'));

interface Served {
  server: ServeProcess;
  env: Record<string, string>;
}

/** A serve of its own for the describe block, and the environment of a CLI logged in to it. */
function servedFor(): () => Served {
  let served: Served | undefined;
  beforeAll(async () => {
    const server = await serve(['--port', '0', '--db', ':memory:', '--token', TOKEN], tempHome());
    served = { server, env: { ...tempHome(), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url } };
  });
  afterAll(() => served?.server.stop());
  return () => served as Served;
}

const file = (name: string, text: string) => {
  const path = join(work, name);
  writeFileSync(path, text);
  return path;
};

/** The charges the server holds, newest first (the listing of pinvoice serve). */
async function held(served: Served): Promise<{ id: number; externalRef: string | null; postbackUrl: string }[]> {
  const answer = await fetch(`${served.server.url}/api/v2/invoices?limit=100`, { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answer.status).toBe(200);
  return ((await answer.json()) as { data: { id: number; externalRef: string | null; postbackUrl: string }[] }).data;
}

/** A pix charge with a misspelt postback URL field and a misspelt payer e-mail (the real one given too). */
const misspelt = (external: string) => {
  const base = validPix({ external_id: external, postback_url: undefined });
  return { postback: 'https://merchant.example.com/postbacks', ...base, payer: { ...base.payer, emial: 'fulano@example.com' } };
};

describe('invoice create --file with unknown fields', () => {
  const s = servedFor();

  it('exits 2 naming each unknown field with its did-you-mean, and creates nothing', async () => {
    const path = file('misspelt.json', JSON.stringify(misspelt('refused-1')));
    const result = await run(['invoice', 'create', '--file', path, '--no-input'], { env: s().env });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`pinvoice: --file ${path} has fields the API does not know, which the gateway would ignore:\n`);
    expect(result.stderr).toContain('  postback: is not a field of this request; did you mean postback_url?\n');
    expect(result.stderr).toContain('  payer.emial: is not a field of this request; did you mean payer.email?\n');
    expect(result.stderr).toMatch(/send them anyway with --allow-unknown-fields/);
    expect(await held(s())).toEqual([]);
  });

  it('refuses the same from stdin (--file -), and an unknown field of an item, by its index', async () => {
    const base = validPix({ external_id: 'refused-2' });
    const body = { ...base, items: [...base.items, { name: 'Meia', qty: 1, unit_price: 0 }] };
    const result = await run(['invoice', 'create', '--file', '-'], { env: s().env, input: JSON.stringify(body) });
    expect(result.code, result.stderr).toBe(2);
    expect(result.stderr).toContain('pinvoice: --file - (stdin) has a field the API does not know');
    expect(result.stderr).toContain('  items[1].qty: is not a field of this request; did you mean items[1].quantity?\n');
    expect(await held(s())).toEqual([]);
  });

  it('--allow-unknown-fields creates it and warns on stderr with what the gateway ignored; --json keeps stdout the record alone', async () => {
    const path = file('allowed.json', JSON.stringify(misspelt('allowed-1')));
    const result = await run(['invoice', 'create', '--file', path, '--allow-unknown-fields', '--json'], { env: s().env });
    expect(result.code, result.stderr).toBe(0);
    const record = JSON.parse(result.stdout);
    expect(record).toMatchObject({ externalRef: 'allowed-1', postbackUrl: '' });
    expect(result.stderr).toContain('pinvoice: the gateway ignored fields it does not know: postback, payer.emial\n');
    expect((await held(s())).map((charge) => charge.externalRef)).toEqual(['allowed-1']);

    const shown = await run(['invoice', 'create', '--file', path, '--allow-unknown-fields', '--no-qr', '--idempotency-key', 'unknown-fields-plain'], { env: s().env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).not.toContain('ignored');
    expect(shown.stderr).toContain('pinvoice: the gateway ignored fields it does not know: postback, payer.emial\n');
  });

  it('a file with known fields only creates with no warning', async () => {
    const path = file('clean.json', JSON.stringify(validPix({ external_id: 'clean-1', currency: 'BRL', metadata: { emial: 'a key of the merchant\'s own' } })));
    const result = await run(['invoice', 'create', '--file', path, '--json'], { env: s().env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).not.toMatch(/ignored|does not know/);
  });
});

describe('invoice create --batch with an unknown field in one line', () => {
  const s = servedFor();
  const lines = [validPix({ external_id: 'batch-1' }), misspelt('batch-2'), validPix({ external_id: 'batch-3' })].map((line) => JSON.stringify(line));

  it('fails that line naming the fields (exit 10) and creates the others', async () => {
    const path = file('batch.ndjson', `${lines.join('\n')}\n`);
    const result = await run(['invoice', 'create', '--batch', path], { env: s().env });
    expect(result.code, result.stderr).toBe(10);
    const results = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(results.map((r) => [r.line, r.ok])).toEqual([[1, true], [2, false], [3, true]]);
    expect(results[1]).toEqual({
      line: 2, ok: false, error: 'unknown_fields',
      message: 'postback: is not a field of this request; did you mean postback_url? (and 1 more problem; see details)',
      details: [
        { path: 'postback', message: 'is not a field of this request; did you mean postback_url?' },
        { path: 'payer.emial', message: 'is not a field of this request; did you mean payer.email?' },
      ],
    });
    expect(results[0]).not.toHaveProperty('ignored_fields');
    expect((await held(s())).map((charge) => charge.externalRef).sort()).toEqual(['batch-1', 'batch-3']);
  });

  it('with --allow-unknown-fields sends it, and its result line names what the gateway ignored', async () => {
    const path = file('batch-allowed.ndjson', `${lines.join('\n')}\n`);
    const result = await run(['invoice', 'create', '--batch', path, '--allow-unknown-fields'], { env: s().env });
    expect(result.code, result.stderr).toBe(0);
    const results = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(results[1]).toEqual({ line: 2, ok: true, id: expect.any(Number), secureId: expect.stringMatching(/^INV-/), status: 'pending', ignored_fields: ['postback', 'payer.emial'] });
    expect(results[0]).not.toHaveProperty('ignored_fields');
    expect((await held(s())).map((charge) => charge.externalRef)).toContain('batch-2');
  });
});
