// The built CLI writing to the production stand-in: creates that production answers minimally (the CLI
// then looks the charge up), fully, or refuses in Laravel's 422 shape; a batch; refunds and 3-D Secure;
// and the `pinvoice serve` extensions production does not have.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { htmlPage, startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';
import { CREATE_PIX, createRequest, loggedIn, removeHomes, requestLines, row, section, tolerated, type Env } from './cli-helpers.js';

let gateway: ProductionGateway;
let env: Env;

beforeAll(async () => {
  gateway = await startProductionGateway();
  env = await loggedIn(gateway);
});
afterAll(async () => {
  await gateway.close();
  removeHomes();
});

const cli = (args: string[], options: { env?: Env } = {}) => run(args, { env: { ...env, ...options.env } });
const ref = (secureId: string) => gateway.record(Number(/-(\d+)$/.exec(secureId)![1]));

describe('creating a charge on production', () => {
  it('a create production answers with only the invoice_id is looked up and shown whole', async () => {
    gateway.createAnswer = 'minimal';
    const from = gateway.requests.length;
    const result = await cli(CREATE_PIX);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    const lines = requestLines(gateway, from);
    expect(lines[0]).toBe('POST /api/v2/invoices');
    const secureId = row(result.stdout, 'secure id')!;
    expect(secureId).toMatch(/^INV-/);
    expect(lines.slice(1)).toContain(`GET /api/v2/invoices/${secureId}`);
    // the postback history is pinvoice serve's: production, which has no /events, is not asked for it
    expect(lines.filter((line) => line.endsWith('/events'))).toEqual([]);
    expect(row(section(result.stdout, 'Payer'), 'name')).toBe('Fulano de Tal');
    expect(row(result.stdout, 'amount')).toBe('R$ 19,90');
    expect(result.stdout).toContain(ref(secureId)!.pix.qrCode);
    // nothing on stderr but the closing lines: what was created, and what to run next
    const id = ref(secureId)!.id as number;
    expect(result.stderr).toBe(`Created pix charge ${id} (${secureId}) R$ 19,90 — pending\nNext: pinvoice invoice open ${id}  (the payer's page)  ·  pinvoice invoice get ${id} --watch\n`);
  });

  it('create --json prints the looked-up record, not the minimal answer', async () => {
    gateway.createAnswer = 'minimal';
    const result = await cli([...CREATE_PIX, '--json']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual(gateway.record(printed.id));
    expect(printed.customer.name).toBe('Fulano de Tal');
  });

  it('a create production answers in full is shown without a second request', async () => {
    gateway.createAnswer = 'full';
    try {
      const from = gateway.requests.length;
      const result = await cli([...CREATE_PIX, '--json']);
      expect(result.code, result.stderr).toBe(0);
      tolerated(result);
      expect(requestLines(gateway, from)).toEqual(['POST /api/v2/invoices']);
      const printed = JSON.parse(result.stdout);
      expect(printed).toMatchObject({ secureId: expect.stringMatching(/^INV-/), customer: { name: 'Fulano de Tal' }, amount: 1990 });
    } finally {
      gateway.createAnswer = 'minimal';
    }
  });

  it('when looking the created charge up fails, the charge is still shown from the create answer, saying so', async () => {
    // a gateway of its own: what is queued for the lookup must not reach another test
    const own = await startProductionGateway();
    try {
      const ownEnv = await loggedIn(own);
      for (let i = 0; i < 3; i++) own.once('GET', /^\/api\/v2\/invoices\/INV-[^/]+$/, { status: 500, body: htmlPage(500) });
      const result = await run(CREATE_PIX, { env: ownEnv });
      expect(result.code, result.stderr).toBe(0);
      const secureId = /\(INV-[^)]+\)/.exec(result.stderr)?.[0].slice(1, -1);
      expect(secureId).toBeDefined();
      expect(result.stderr).toContain(`the charge was created (${secureId}`);
      expect(result.stderr).toContain('looking up its whole record failed');
      expect(result.stderr).not.toContain('<html');
      expect(row(result.stdout, 'secure id')).toBe(secureId);
      expect(result.stdout).toContain(own.record(Number(secureId!.split('-').at(-1)))!.pix.qrCode);
      expect(requestLines(own).filter((line) => line === 'POST /api/v2/invoices')).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('when the created charge is not found at once, it is still shown from the create answer', async () => {
    gateway.once('GET', /^\/api\/v2\/invoices\/INV-[^/]+$/, { status: 404, body: { message: 'Transaction not found.' } });
    const result = await cli(CREATE_PIX);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/the charge was created \(INV-[^)]+\), but looking up its whole record failed/);
    const secureId = row(result.stdout, 'secure id')!;
    expect(result.stdout).toContain(ref(secureId)!.pix.qrCode);
  });

  it('a create request from --file works the same', async () => {
    const file = join(env.HOME!, 'charge.json');
    writeFileSync(file, JSON.stringify(createRequest(7)));
    const from = gateway.requests.length;
    const result = await cli(['invoice', 'create', '--file', file, '--no-input']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(requestLines(gateway, from)[0]).toBe('POST /api/v2/invoices');
    expect(row(section(result.stdout, 'Payer'), 'name')).toBe('João 7');
    expect(row(result.stdout, 'amount')).toBe('R$ 10,07');
    expect(result.stdout).toContain(ref(row(result.stdout, 'secure id')!)!.pix.qrCode);
  });

  it('--allow-unknown-fields sends a file\'s unknown fields; production names none it ignored, so no warning', async () => {
    const file = join(env.HOME!, 'charge-extra.json');
    writeFileSync(file, JSON.stringify({ ...createRequest(8), utm_source: 'newsletter' }));
    expect((await cli(['invoice', 'create', '--file', file, '--no-input'])).code).toBe(2);
    const from = gateway.requests.length;
    const result = await cli(['invoice', 'create', '--file', file, '--no-input', '--allow-unknown-fields']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(JSON.parse(gateway.requests[from]!.body)).toMatchObject({ utm_source: 'newsletter' });
    expect(result.stderr).not.toMatch(/ignored|does not know/);
  });

  it('a batch of three pix lines gives three result lines, id null since production answers no integer id', async () => {
    const file = join(env.HOME!, 'lines.ndjson');
    writeFileSync(file, `${[1, 2, 3].map((n) => JSON.stringify(createRequest(n))).join('\n')}\n`);
    const result = await cli(['invoice', 'create', '--batch', file]);
    expect(result.code, result.stderr).toBe(0);
    const lines = result.stdout.trim().split('\n').map((line) => JSON.parse(line));
    expect(lines.sort((a, b) => a.line - b.line)).toEqual([1, 2, 3].map((line) => ({ line, ok: true, id: null, secureId: expect.stringMatching(/^INV-/), status: 'pending' })));
    for (const { secureId } of lines) expect(ref(secureId)).toMatchObject({ status: 'pending', paymentMethod: 'pix' });
  });

  it('Laravel\'s 422 is exit 2 with its message and every field\'s messages, each field named by the flag that gave it', async () => {
    gateway.once('POST', /^\/api\/v2\/invoices$/, {
      status: 422,
      body: {
        message: 'The given data was invalid.',
        errors: { 'payer.cpf_cnpj': ['The payer.cpf_cnpj field is required.', 'second message'], 'items.0.name': ['The name is required.'] },
      },
    });
    const result = await cli(CREATE_PIX);
    expect(result.code, result.stderr).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^pinvoice: The given data was invalid:\n/);
    const lines = result.stderr.split('\n').map((line) => line.trim());
    expect(lines).toContain('--payer-document: The payer.cpf_cnpj field is required.');
    expect(lines).toContain('--payer-document: second message');
    expect(lines).toContain('--item "Camiseta:1:19,90": The name is required.');
  });
});

describe('acting on a charge on production', () => {
  it('a refund from a script without --yes is refused before anything is sent (exit 2, naming --yes)', async () => {
    const { id } = gateway.addRecord({ status: 'paid' });
    const from = gateway.requests.length;
    const result = await cli(['invoice', 'refund', String(id)]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/needs --yes .*nothing was sent/);
    expect(gateway.requests.slice(from)).toEqual([]);
    expect(gateway.record(id)!.status).toBe('paid');
  });

  it('refunding a paid charge shows it refunded', async () => {
    const { id } = gateway.addRecord({ status: 'paid' });
    const result = await cli(['invoice', 'refund', String(id), '--yes']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(row(result.stdout, 'status')).toBe('refunded');
    expect(row(result.stdout, 'refunded')).toBe('R$ 159,90');
    expect(gateway.record(id)!.status).toBe('refunded');
  });

  it('a partial refund with --amount 5,00 leaves the charge paid, R$ 5,00 refunded', async () => {
    const { id } = gateway.addRecord({ status: 'paid' });
    const from = gateway.requests.length;
    const result = await cli(['invoice', 'refund', String(id), '--amount', '5,00', '--yes']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(row(result.stdout, 'status')).toBe('paid');
    expect(row(result.stdout, 'refunded')).toBe('R$ 5,00');
    const post = gateway.requests.slice(from).find((request) => request.method === 'POST');
    expect(post?.url).toBe(`/api/v2/invoices/${id}/refund`);
    expect(JSON.parse(post!.body)).toMatchObject({ amount_cents: 500 });
  });

  it('3-D Secure with the sample values on a waiting_3ds card pays it', async () => {
    const { id } = gateway.addRecord({ paymentMethod: 'credit_card', status: 'waiting_3ds' });
    const result = await cli(['invoice', '3ds', String(id), '--sample']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(row(result.stdout, 'status')).toBe('paid');
    expect(gateway.record(id)!.status).toBe('paid');
  });
});

describe('what only `pinvoice serve` has', () => {
  it.each([
    [['sandbox', 'pay', '4242'], 'sandbox controls', 'sandbox pay'],
    [['sandbox', 'clock'], 'sandbox controls', 'sandbox clock'],
    [['logs', 'tail'], 'sandbox controls', 'logs tail'],
    [['logs', 'list', '--status', '4xx'], 'sandbox controls', 'logs list'],
    [['logs', 'show', '1'], 'sandbox controls', 'logs show'],
    [['logs', 'clear', '--yes'], 'sandbox controls', 'logs clear'],
    [['dashboard', '--print'], 'sandbox controls', 'dashboard'],
    [['events', 'list', '4242'], 'postback event history', 'events list'],
    [['webhooks', 'secret'], 'webhook secret endpoint', 'webhooks secret'],
  ])('%j on production says production has no %s, which the command needs, not a bare HTTP 404', async (args, what, command) => {
    gateway.addRecord();
    const result = await cli(args);
    expect(result.code, result.stderr).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`pinvoice: this gateway (${gateway.url}) has no ${what}, which \`pinvoice ${command}\` needs: that is a \`pinvoice serve\` extension`);
    expect(result.stderr).not.toContain('HTTP 404 (HTTP 404 http_404)');
    expect(result.stderr).not.toContain('<html');
  });
});
