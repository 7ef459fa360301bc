import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { readsFrom } from '../support/journal.js';
import { validPix } from '../support/server.js';
import { spawnSync } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

const TOKEN = 'pinv_test_e2e_cli_token_0123456789';
let server: ServeProcess;
let home: Record<string, string>;
let env: Record<string, string>;
const work = mkdtempSync(join(tmpdir(), 'pinvoice-cli-'));
const db = join(work, 'cli.db');

beforeAll(async () => {
  server = await serve(['--port', '0', '--db', db, '--token', TOKEN], tempHome());
  home = tempHome();
  env = { ...home, PINVOICE_CONFIG_DIR: join(home.HOME ?? '', 'pinvoice-config') };
  const login = await run(['login', '--profile', 'local', '--base-url', server.url, '--token-stdin'], { env, input: `${TOKEN}\n` });
  expect(login.code, login.stderr).toBe(0);
});
afterAll(() => server.stop());

const cli = (args: string[], options: { input?: string; env?: Record<string, string | undefined> } = {}) =>
  run(args, { env: { ...env, ...options.env }, input: options.input });
const json = (text: string) => JSON.parse(text);
const charge = join(work, 'charge.json');
writeFileSync(charge, JSON.stringify(validPix()));
/** A loopback port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
const noStackTrace = (text: string) => expect(text).not.toMatch(/^\s+at .+:\d+:\d+\)?$/m);

describe('login and profiles', () => {
  it('stores the profile in a file only its owner can read; profile list shows its company and masks the token', async () => {
    const path = join(env.PINVOICE_CONFIG_DIR ?? '', 'config.json');
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(env.PINVOICE_CONFIG_DIR ?? '').mode & 0o777).toBe(0o700);
    const list = await cli(['profile', 'list']);
    expect(list.stdout).toContain('local');
    expect(list.stdout).toContain(server.url);
    expect(list.stdout).not.toContain(TOKEN);
    expect(list.stdout).toContain('Pinvoice Sandbox');
    const listed = json((await cli(['profile', 'list', '--json'])).stdout);
    expect(listed).toEqual([{
      name: 'local', current: true, baseUrl: server.url, token: expect.stringMatching(/^pinv_tes….{4}$/),
      company: { id: expect.any(Number), cnpj: expect.any(String), name: 'Pinvoice Sandbox' },
    }]);
    expect(list.stdout).toContain(listed[0].company.cnpj.replace(/^(\d{2})(\d{3})(\d{3})(\d{4})(\d{2})$/, '$1.$2.$3/$4-$5'));
  });

  it('takes the token from a file too, and rejects a wrong token with exit 3', async () => {
    const file = join(work, 'token.txt');
    writeFileSync(file, `${TOKEN}\n`);
    expect((await cli(['login', '--profile', 'fromfile', '--base-url', server.url, '--token-file', file])).code).toBe(0);
    const wrong = await cli(['login', '--profile', 'bad', '--base-url', server.url, '--token-stdin'], { input: 'pinv_test_wrong_token_value' });
    expect(wrong.code).toBe(3);
    expect(wrong.stderr).toMatch(/rejected this token/);
    expect(json((await cli(['profile', 'list', '--json'])).stdout).map((p: any) => p.name)).not.toContain('bad');
    expect((await cli(['profile', 'use', 'local'])).code).toBe(0);
  });

  it('never prompts without a TTY: login without --token-stdin/--token-file exits 6', async () => {
    const result = await cli(['login', '--profile', 'x', '--base-url', server.url]);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/--token-stdin or --token-file/);
  });

  it('has no --token flag: a secret never goes on the command line', async () => {
    const result = await cli(['login', '--token', TOKEN]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/unknown option '--token'/);
  });

  it('logout removes the profile; commands then exit 3 naming the fix', async () => {
    const file = join(work, 'token2.txt');
    writeFileSync(file, TOKEN);
    await cli(['login', '--profile', 'temp', '--base-url', server.url, '--token-file', file]);
    expect((await cli(['logout', '--profile', 'temp'])).code).toBe(0);
    const after = await cli(['whoami', '--profile', 'temp']);
    expect(after.code).toBe(3);
    expect(after.stderr).toMatch(/pinvoice login --profile temp/);
    expect((await cli(['profile', 'use', 'temp'])).code).toBe(4);
    await cli(['profile', 'use', 'local']);
  });

  it('whoami shows the company and balances; --json is the Company Infos record', async () => {
    const table = await cli(['whoami']);
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/Pinvoice Sandbox/);
    expect(table.stdout).toMatch(/R\$ 0,00/);
    const record = json((await cli(['company', '--json'])).stdout);
    const direct = await (await fetch(`${server.url}/api/v2/company`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(record).toEqual(direct);
  });

  it('flag > environment > file: PINVOICE_TOKEN, PINVOICE_BASE_URL, PINVOICE_PROFILE, --base-url', async () => {
    const badUrl = `http://127.0.0.1:${await closedPort()}`;
    expect((await cli(['whoami'], { env: { PINVOICE_TOKEN: 'pinv_test_wrong_token_value' } })).code).toBe(3);
    // a profile's token is never sent to another origin; a token given for the run goes where the run says
    const elsewhere = await cli(['whoami'], { env: { PINVOICE_BASE_URL: badUrl } });
    expect(elsewhere.code).toBe(2);
    expect(elsewhere.stderr).toContain(`holds a token for ${server.url}; pinvoice does not send it to ${badUrl} (PINVOICE_BASE_URL)`);
    expect((await cli(['whoami'], { env: { PINVOICE_BASE_URL: badUrl, PINVOICE_TOKEN: TOKEN } })).code).toBe(5);
    expect((await cli(['whoami', '--base-url', server.url], { env: { PINVOICE_BASE_URL: badUrl } })).code).toBe(0);
    expect((await cli(['whoami'], { env: { PINVOICE_PROFILE: 'nosuch' } })).code).toBe(3);
    expect((await cli(['whoami', '--profile', 'local'], { env: { PINVOICE_PROFILE: 'nosuch' } })).code).toBe(0);
    const noConfig = { PINVOICE_CONFIG_DIR: join(work, 'empty-config'), PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url };
    expect((await cli(['whoami', '--json'], { env: noConfig })).code).toBe(0);
  });
});

describe('invoice create', () => {
  it('from a file: prints the record as tables; --json prints the record', async () => {
    const table = await cli(['invoice', 'create', '--file', charge]);
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/pending/);
    expect(table.stdout).toMatch(/R\$ 19,90/);
    expect(table.stdout).toMatch(/529\.982\.247-25/);
    const record = json((await cli(['invoice', 'create', '--file', charge, '--json'])).stdout);
    expect(record).toMatchObject({ status: 'pending', amount: 1990, paymentMethod: 'pix' });
  });

  it('from stdin with --file -', async () => {
    const result = await cli(['invoice', 'create', '--file', '-', '--json'], { input: JSON.stringify(validPix({ total_price_cents: 500, items: [{ name: 'Meia', quantity: 1, unit_price: 500 }] })) });
    expect(result.code, result.stderr).toBe(0);
    expect(json(result.stdout).amount).toBe(500);
  });

  it('from flags alone, and flags override the file', async () => {
    const args = ['--method', 'pix', '--payer-name', 'Beltrana', '--payer-email', 'b@example.com', '--payer-document', '111.444.777-35', '--item', 'Caneca azul:2:12,50', '--item', 'Café: especial:1:7.40', '--tangible'];
    const fromFlags = json((await cli(['invoice', 'create', ...args, '--json'])).stdout);
    expect(fromFlags.amount).toBe(3240);
    expect(fromFlags.items).toEqual([
      { title: 'Caneca azul', quantity: 2, unitPrice: 1250, tangible: true, externalRef: null },
      { title: 'Café: especial', quantity: 1, unitPrice: 740, tangible: true, externalRef: null },
    ]);
    const overridden = json((await cli(['invoice', 'create', '--file', charge, '--payer-name', 'Outro Nome', '--item', 'Boné:1:30', '--json'])).stdout);
    expect(overridden.client.name).toBe('Outro Nome');
    expect(overridden.amount).toBe(3000);
  });

  it('--dry-run prints the normalized payload and creates nothing', async () => {
    const before = json((await cli(['invoice', 'create', '--file', charge, '--json'])).stdout).id;
    const dry = await cli(['invoice', 'create', '--file', charge, '--amount', '19,90', '--dry-run']);
    expect(dry.code).toBe(0);
    expect(json(dry.stdout)).toMatchObject({ method: 'pix', total_price_cents: 1990 });
    const after = json((await cli(['invoice', 'create', '--file', charge, '--json'])).stdout).id;
    expect(after).toBe(before + 1);
  });

  it('without a TTY it never prompts: missing data exits 6 naming each field and its flag', async () => {
    const result = await cli(['invoice', 'create', '--method', 'pix', '--payer-name', 'X', '--amount', '10']);
    expect(result.code).toBe(6);
    expect(result.stderr).toMatch(/payer\.email {2}\(--payer-email\)/);
    expect(result.stderr).toMatch(/payer\.cpf_cnpj {2}\(--payer-document\)/);
    expect(result.stdout).toBe('');
  });

  it('validates before sending: each problem named by the flag that gave it, amounts in reais, exit 2', async () => {
    const result = await cli(['invoice', 'create', '--file', charge, '--payer-document', '529.982.247-26', '--amount', '20,00']);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^ {2}--payer-document: "529\.982\.247-26" is not a valid CPF: the check digits do not match$/m);
    expect(result.stderr).toMatch(/^ {2}--amount: R\$ 20,00 is not the sum of the items \(items in --file\): R\$ 19,90$/m);
    noStackTrace(result.stderr);
  });

  it.each([
    [['--file', '/nonexistent/charge.json'], /^pinvoice: --file: \/nonexistent\/charge\.json does not exist$/m],
    [['--file', '-'], /not valid JSON/],
    [['--item', 'Camiseta:x:10'], /quantity must be a whole number/],
    [['--amount', 'dez reais'], /--amount: "dez reais" is not an amount/],
    [['--method', 'pix', '--item', 'Camiseta'], /must be "name:quantity:unit_price"/],
  ])('bad input %j is a usage error (exit 2)', async (args, message) => {
    const result = await cli(['invoice', 'create', ...args], { input: '{not json' });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
  });

  it('the same --idempotency-key twice creates one charge', async () => {
    const a = json((await cli(['invoice', 'create', '--file', charge, '--idempotency-key', 'e2e-key-1', '--json'])).stdout);
    const b = json((await cli(['invoice', 'create', '--file', charge, '--idempotency-key', 'e2e-key-1', '--json'])).stdout);
    expect(b.id).toBe(a.id);
  });
});

describe('invoice get', () => {
  let created: any;
  beforeAll(async () => {
    created = json((await cli(['invoice', 'create', '--file', charge, '--json'])).stdout);
  });

  it('--json prints the record exactly as the API returned it; create --json printed the create answer\'s data as sent', async () => {
    const result = await cli(['invoice', 'get', String(created.id), '--json']);
    const direct: any = await (await fetch(`${server.url}/api/v2/invoices/${created.id}`, { headers: { authorization: `Bearer ${TOKEN}` } })).json();
    expect(json(result.stdout)).toEqual(direct);
    // the create answer's data: the record, plus invoice_id and qr_code_pix, which integrations read
    expect(created).toEqual({ ...direct, invoice_id: direct.secureId, qr_code_pix: direct.pix.qrCode });
  });

  it('create takes --external-id, --metadata and --payer-neighborhood; get shows them', async () => {
    const made = await cli(['invoice', 'create', '--file', charge, '--external-id', 'pedido-1042', '--metadata', 'channel=loja', '--metadata', 'note=a=b',
      '--payer-neighborhood', 'Bela Vista', '--json']);
    expect(made.code, made.stderr).toBe(0);
    const record = json(made.stdout);
    expect(record).toMatchObject({ externalRef: 'pedido-1042', metadata: { channel: 'loja', note: 'a=b' } });
    expect(record.customer.address.neighborhood).toBe('Bela Vista');
    const shown = (await cli(['invoice', 'get', record.secureId, '--no-qr'])).stdout;
    expect(shown).toMatch(/external ref\s+│?\s*pedido-1042/);
    expect(shown).toContain('channel=loja, note=a=b');
    expect(shown).toContain('Bela Vista');
    const bad = await cli(['invoice', 'create', '--file', charge, '--metadata', 'nokey']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--metadata "nokey" must be "key=value"/);
  });

  it('renders tables a support agent reads at a glance, with the pix code whole', async () => {
    const result = await cli(['invoice', 'get', created.secureId]);
    expect(result.code).toBe(0);
    for (const text of [created.secureId, 'pending', 'R$ 19,90', 'Camiseta', 'Fulano de Tal', '529.982.247-25', 'R$ 0,20', 'R$ 19,70']) {
      expect(result.stdout).toContain(text);
    }
    expect(result.stdout.split('\n')).toContain(created.pix.qrCode);
    expect(result.stdout).not.toContain('\u001b[');
  });

  it('--qr draws the QR even without a TTY; FORCE_COLOR adds colour unless --no-color', async () => {
    const withQr = await cli(['invoice', 'get', String(created.id), '--qr']);
    expect(withQr.stdout).toMatch(/[▀▄█]/);
    expect((await cli(['invoice', 'get', String(created.id)], { env: { FORCE_COLOR: '1' } })).stdout).toContain('\u001b[');
    expect((await cli(['invoice', 'get', String(created.id), '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain('\u001b[');
  });

  it('exit codes: unknown id 4, server down 5, not logged in 3', async () => {
    const unknown = await cli(['invoice', 'get', '999999']);
    expect(unknown.code).toBe(4);
    expect(unknown.stderr).toMatch(/not_found/);
    const port = await closedPort();
    const down = await cli(['invoice', 'get', '1', '--base-url', `http://127.0.0.1:${port}`], { env: { PINVOICE_TOKEN: TOKEN } });
    expect(down.code).toBe(5);
    expect(down.stderr).toContain(`cannot connect to http://127.0.0.1:${port} (connection refused; is the server running?)`);
    const anonymous = await run(['invoice', 'get', '1'], { env: { ...tempHome(), PINVOICE_CONFIG_DIR: join(work, 'nobody') } });
    expect(anonymous.code).toBe(3);
    for (const r of [unknown, down, anonymous]) noStackTrace(r.stderr);
  });

  it('--debug prints each exchange to stderr with the token masked', async () => {
    const result = await cli(['invoice', 'get', String(created.id), '--debug', '--json']);
    expect(result.stderr).toMatch(/> GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/invoices\/\d+/);
    expect(result.stderr).toMatch(/Authorization: Bearer pinv_tes….{4}/);
    expect(result.stderr).toMatch(/< 200 OK/);
    expect(result.stderr).not.toContain(TOKEN);
    expect(json(result.stdout).id).toBe(created.id);
  });

  it('--debug masks the webhook secret in the answers it shows', async () => {
    const result = await cli(['webhooks', 'secret', '--debug']);
    expect(result.code, result.stderr).toBe(0);
    const secret = result.stdout.trim();
    expect(secret).toMatch(/^whsec_/);
    expect(result.stderr).toMatch(/"webhook_secret":"whsec_.{2}….{4}"/);
    expect(result.stderr).not.toContain(secret);
  });

  it('--debug masks the card number and the security code like the token', async () => {
    const card = { number: '4111 1111 1111 1111', first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', security_code: '9731' };
    const path = join(work, 'card.json');
    writeFileSync(path, JSON.stringify({ ...JSON.parse(readFileSync(charge, 'utf8')), method: 'credit_card', card }));
    const result = await cli(['invoice', 'create', '--file', path, '--debug', '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('"number":"411111******1111"');
    expect(result.stderr).toContain('"security_code":"***"');
    for (const secret of ['4111 1111 1111 1111', '4111111111111111', '9731']) expect(result.stderr).not.toContain(secret);
  });

  it('--watch exits 8 when still pending at --timeout', async () => {
    const result = await cli(['invoice', 'get', String(created.id), '--watch', '--timeout', '1', '--interval', '1']);
    expect(result.code).toBe(8);
    expect(result.stderr).toMatch(/still pending after 1 s/);
  });

  it('--watch exits 0 once the charge is paid, 7 when it ends unpaid', async () => {
    // The payment and the cancellation come from other commands while the watches run.
    const other = json((await cli(['invoice', 'create', '--file', charge, '--json'])).stdout);
    const reads = await Promise.all([other.id, created.id].map((id: number) => readsFrom(server.url, TOKEN, id)));
    const watchPaid = cli(['invoice', 'get', String(other.id), '--watch', '--timeout', '20', '--interval', '1', '--json']);
    const watchCanceled = cli(['invoice', 'get', String(created.id), '--watch', '--timeout', '20', '--interval', '1']);
    // each watch has read its charge pending and polled it once before the sandbox changes it
    await Promise.all(reads.map((read) => read.seen(2)));
    expect((await cli(['sandbox', 'pay', String(other.id)])).code).toBe(0);
    expect((await cli(['sandbox', 'cancel', String(created.id)])).code).toBe(0);
    const paid = await watchPaid;
    expect(paid.code, paid.stderr).toBe(0);
    expect(json(paid.stdout).status).toBe('paid');
    const canceled = await watchCanceled;
    expect(canceled.code).toBe(7);
    expect(canceled.stderr).toMatch(/ended canceled/);
  });
});

describe('startup', () => {
  it('--version loads no package and no command: it is answered before the command tree', () => {
    const trace = join(work, 'trace-version.txt');
    writeFileSync(trace, '');
    const hook = new URL('../support/trace-imports.mjs', import.meta.url).pathname;
    const result = spawnSync(process.execPath, ['--import', hook, BIN, '--version'], { env: { ...process.env, PINVOICE_TRACE_FILE: trace }, encoding: 'utf8' });
    expect(result.status).toBe(0);
    expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
    const loaded = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
    expect(loaded.filter((line) => !line.includes('/dist/'))).toEqual([]);
    expect(loaded.some((line) => line.endsWith('/dist/program.js'))).toBe(false);
  });

  it('--help loads none of conf, zod, inquirer, ofetch', () => {
    for (const args of [['--help'], ['invoice', 'create', '--help']]) {
      const trace = join(work, `trace-${args.join('')}.txt`);
      writeFileSync(trace, '');
      const hook = new URL('../support/trace-imports.mjs', import.meta.url).pathname;
      const result = spawnSync(process.execPath, ['--import', hook, BIN, ...args], { env: { ...process.env, PINVOICE_TRACE_FILE: trace }, encoding: 'utf8' });
      expect(result.status).toBe(0);
      const loaded = readFileSync(trace, 'utf8');
      expect(loaded).toMatch(/^commander$/m);
      expect(loaded).not.toMatch(/^(conf|zod|@inquirer\/prompts|ofetch|fastify|better-sqlite3|cli-table3|chalk)$/m);
    }
  });

  it('--help loads the command groups and no handler: no module of a command, the client, the server, prompts or renderers', () => {
    for (const args of [['--help'], ['invoice', 'create', '--help'], ['serve', 'company', 'add', '--help'], ['webhooks', 'listen', '--help']]) {
      const trace = join(work, `trace-ours-${args.join('')}.txt`);
      writeFileSync(trace, '');
      const hook = new URL('../support/trace-imports.mjs', import.meta.url).pathname;
      const result = spawnSync(process.execPath, ['--import', hook, BIN, ...args], { env: { ...process.env, PINVOICE_TRACE_FILE: trace }, encoding: 'utf8' });
      expect(result.status).toBe(0);
      const ours = readFileSync(trace, 'utf8').split('\n').filter((line) => line.includes('/dist/')).map((url) => url.replace(/^.*\/dist\//, ''));
      expect(ours).toEqual(expect.arrayContaining(['program.js', 'commands/invoice/index.js', 'commands/serve/index.js', 'commands/webhooks/index.js']));
      const handlers = ours.filter((path) => /^commands\/[\w-]+\/(?!index\.js$)/.test(path));
      expect(handlers).toEqual([]);
      // the server's configuration (declarations and defaults only) is what serve's flags default to
      expect(ours.filter((path) => /^api\/|^server\/(?!config\.js$|limits\.js$)|^client\/(index|http)\.js$|^cli\/(prompts\/|context|config|output)|^cli\/render\/(?!safe-text|width)/.test(path))).toEqual([]);
    }
  });

  it('invoice get <secureId> --json against a real server loads only what a lookup needs: a module that enters the path is named', async () => {
    const created = await cli(['invoice', 'create', '--file', charge, '--json']);
    expect(created.code, created.stderr).toBe(0);
    const { secureId } = json(created.stdout) as { secureId: string };
    const trace = join(work, 'trace-invoice-get.txt');
    writeFileSync(trace, '');
    const hook = new URL('../support/trace-imports.mjs', import.meta.url).pathname;
    // (the server is a process of its own: waiting here for the CLI keeps nothing from answering)
    const result = spawnSync(process.execPath, ['--import', hook, BIN, 'invoice', 'get', secureId, '--json'], { env: { PATH: process.env.PATH, NO_COLOR: '1', ...env, PINVOICE_TRACE_FILE: trace }, encoding: 'utf8' });
    expect(result.status, result.stderr).toBe(0);
    expect(json(result.stdout).secureId).toBe(secureId);
    const loaded = new Set(readFileSync(trace, 'utf8').split('\n').filter(Boolean).map((url) => url.replace(/^.*\/dist\//, '')));
    const entered = [...loaded].filter((module) => !GET_JSON_MODULES.has(module)).sort();
    expect(entered, `modules entered the load path of \`invoice get --json\` (make them lazy, or add them to GET_JSON_MODULES if a lookup needs them): ${entered.join(', ')}`).toEqual([]);
  });
});

/**
 * What `invoice get <id> --json` may load (bench/startup.ts times it): the invoice group of the command
 * tree (no other group: program.ts loads the one a run names) and commander, the lookup (connection,
 * client, the record's reader, the reference's kinds) and the output. Not the watch, the renderers, the
 * event stream, serve's own answers' readers or any package but commander: each is loaded by what uses it.
 */
const GET_JSON_MODULES = new Set([
  'main.js', 'program.js', 'version.js',
  // commander, required (commands/commander.ts), the one package: the trace sees require() too
  'commander', 'commands/commander.js', 'commands/options.js',
  'commands/invoice/index.js',
  // invoice's flags offer the status machine's names
  'domain/status.js',
  'commands/invoice/get.js', 'commands/invoice/find.js', 'commands/invoice/show.js',
  'cli/config.js', 'cli/context.js', 'cli/errors.js', 'cli/operation-commands.js', 'cli/output.js', 'cli/paths.js', 'cli/profile-name.js', 'cli/url-flag.js',
  'cli/render/colour.js', 'cli/render/safe-text.js', 'cli/render/time.js', 'cli/render/width.js',
  'client/errors.js', 'client/get-text.js', 'client/http.js', 'client/index.js', 'client/operations.js',
  'client/read/error-body.js', 'client/read/others.js', 'client/read/transaction-fields.js', 'client/read/transaction.js', 'client/read/values.js',
  'base/input-error.js', 'base/spoken-duration.js', 'base/timestamp.js',
  // the reference's kinds (a pix code among them: domain/reference.ts reads it), the debug output's redaction
  'domain/reference.js', 'domain/pix-decode.js', 'domain/pix.js', 'domain/document.js', 'domain/text.js', 'domain/secrets.js', 'domain/card.js',
]);
