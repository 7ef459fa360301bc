// The built CLI reading from the production stand-in: login, whoami, a charge in every shape production
// writes (fields nobody listed, statuses of its own, card/boleto/timeline/refunds of other shapes, values
// of unexpected types), a charge that is not there, and --watch through production's own statuses.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run } from '../support/cli.js';
import { productionRefunds, productionTimeline, setStatus, startProductionGateway, type ProductionGateway } from '../support/production-gateway.js';
import { home, loggedIn, removeHomes, row, section, tolerated, until, type Env } from './cli-helpers.js';

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

const cli = (args: string[], options: { env?: Env; timeoutMs?: number } = {}) => run(args, { env: { ...env, ...options.env }, timeoutMs: options.timeoutMs });

describe('logging in to production and asking who we are', () => {
  it('a login with the documented /api/v2 base URL names the company and stores the origin alone', async () => {
    const fresh = home();
    const login = await run(['login', '--profile', 'prod', '--base-url', `${gateway.url}/api/v2`, '--token-stdin'], { env: fresh, input: gateway.token });
    expect(login.code, login.stderr).toBe(0);
    expect(login.stderr).toContain(`Logged in to ${gateway.url} as Loja Exemplo (CNPJ 11.222.333/0001-81)`);
    expect(login.stdout).toBe('');
    const listed = JSON.parse((await run(['profile', 'list', '--json'], { env: fresh })).stdout);
    expect(listed).toEqual([expect.objectContaining({ name: 'prod', current: true, baseUrl: gateway.url })]);
    const config = JSON.parse(readFileSync(join(fresh.XDG_CONFIG_HOME!, 'pinvoice', 'config.json'), 'utf8'));
    expect(config.profiles.prod).toMatchObject({ baseUrl: gateway.url, token: gateway.token });
    expect(gateway.requests.filter((request) => request.url === '/api/v2/company').length).toBeGreaterThan(0);
  });

  it('whoami shows the company, its PHP timestamps (UTC) in São Paulo\'s time by default, and the fields nobody listed under Other fields', async () => {
    const result = await cli(['whoami']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(result.stdout).toContain('Loja Exemplo');
    expect(row(result.stdout, 'created')).toBe('2025-01-10 10:02:44 -03:00');
    const other = section(result.stdout, 'Other fields');
    expect(row(other, 'plan.name')).toBe('pro');
    expect(row(other, 'plan.since')).toBe('2025-01-10');
  });

  it('whoami --json prints exactly what the gateway answered', async () => {
    const result = await cli(['whoami', '--json']);
    expect(result.code, result.stderr).toBe(0);
    const answered = await fetch(`${gateway.url}/api/v2/company`, { headers: { authorization: `Bearer ${gateway.token}` } }).then((response) => response.json());
    expect(JSON.parse(result.stdout)).toEqual(answered);
    expect(JSON.parse(result.stdout).data.plan).toEqual({ name: 'pro', since: '2025-01-10' });
  });
});

describe('a charge as production writes it', () => {
  it('a pix charge is shown by id and by secureId, with its code, its six-digit times as UTC and the fields nobody listed', async () => {
    const record = gateway.addRecord();
    for (const ref of [String(record.id), record.secureId as string]) {
      const result = await cli(['invoice', 'get', ref, '--utc']);
      expect(result.code, result.stderr).toBe(0);
      tolerated(result);
      expect(row(result.stdout, 'secure id')).toBe(record.secureId);
      expect(row(result.stdout, 'created')).toBe('2026-11-25 23:38:17 UTC');
      expect(result.stdout).toContain(`pix copy-and-paste code:\n${record.pix.qrCode}`);
      const other = section(result.stdout, 'Other fields');
      for (const field of ['antifraud.score', 'antifraud.provider', 'gateway_reference', 'invoice.nsu']) expect(other).toContain(`│ ${field} `);
      expect(row(other, 'antifraud.provider')).toBe('clearsale');
      expect(row(other, 'invoice.nsu')).toBe(record.invoice.nsu);
    }
  });

  it('invoice get asks production for the record only: no /events (postback history is pinvoice serve\'s), by id or secureId', async () => {
    const record = gateway.addRecord();
    const events = /^\/api\/v2\/invoices\/[^/]+\/events$/;
    const before = gateway.countRequests(events);
    for (const ref of [String(record.id), record.secureId as string]) {
      const result = await cli(['invoice', 'get', ref]);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).not.toContain('Postbacks');
    }
    expect(gateway.countRequests(events) - before).toBe(0);
    expect(gateway.countRequests(new RegExp(`^/api/v2/invoices/(${record.id}|${record.secureId})$`))).toBeGreaterThanOrEqual(2);
  });

  it('--json keeps every field production sent, six-digit fractions intact', async () => {
    const record = gateway.addRecord({ paymentMethod: 'boleto' });
    const result = await cli(['invoice', 'get', String(record.id), '--json']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    const printed = JSON.parse(result.stdout);
    expect(printed).toEqual(gateway.record(record.id));
    expect(printed.createdAt).toBe('2026-11-25T23:38:17.443211Z');
    expect(printed.invoice.updated_at).toBe('2026-11-25T23:38:17.512904Z');
  });

  it('a record with a status production invented is shown, not refused', async () => {
    const record = gateway.addRecord({ status: 'in_analysis' });
    const result = await cli(['invoice', 'get', String(record.id)]);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(row(result.stdout, 'status')).toBe('in_analysis (unknown status)');
  });

  it('a card in production\'s own shape is shown with its digits, holder and expiry', async () => {
    const record = gateway.addRecord({ paymentMethod: 'credit_card', status: 'paid' });
    const result = await cli(['invoice', 'get', String(record.id)]);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    const payment = section(result.stdout, 'Payment (credit card)');
    expect(row(payment, 'card')).toBe('411111 •••• 1111');
    expect(row(payment, 'holder')).toBe('MARIA SILVA');
    expect(row(payment, 'valid thru')).toBe('12/2030');
    expect(row(payment, 'brand')).toBe('visa');
  });

  it('a boleto in production\'s own shape is shown with its typeable line formatted, barcode, due date and PDF', async () => {
    const record = gateway.addRecord({ paymentMethod: 'boleto' });
    const result = await cli(['invoice', 'get', String(record.id)]);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    const payment = section(result.stdout, 'Payment (boleto)');
    const line = row(payment, 'typeable line');
    expect(line).toMatch(/^\d{5}\.\d{5} \d{5}\.\d{6} \d{5}\.\d{6} \d \d{14}$/);
    expect(line!.replace(/\D/g, '')).toBe(record.boleto.line);
    expect(row(payment, 'barcode')).toBe(record.boleto.barcode);
    expect(row(payment, 'due date')).toMatch(/^2026-12-01( \((due|\d+ days? overdue).*\))?$/);
    expect(row(payment, 'PDF')).toBe(record.boleto.url);
  });

  it('production\'s timeline and refunds are shown, a -03:00 time converted to UTC, their extra fields kept', async () => {
    const record = gateway.addRecord({ timeline: productionTimeline(), refunds: productionRefunds() });
    const result = await cli(['invoice', 'get', String(record.id), '--utc']);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    const timeline = section(result.stdout, 'Timeline');
    expect(timeline).toMatch(/│ 2026-11-25 23:38:17 UTC │ pending +│ — +│/);
    expect(timeline).toMatch(/│ 2026-11-26 02:40:00 UTC │ in_analysis \(unknown status\) │ antifraud review │/);
    expect(section(result.stdout, 'Refunds')).toMatch(/│ 9 +│ R\$ 5,00 │/);
    expect(row(section(result.stdout, 'Other fields'), 'refunds[0].status')).toBe('done');
  });

  it('fields of unexpected types are shown as sent or as missing, without breaking the view', async () => {
    const record = gateway.addRecord({
      amount: '159.90',
      customer: null,
      items: 'none',
      fee: [],
      timeline: [{ status: 'paid' }, 'weird'],
      refusedReason: { code: 'X1', message: 'Cartão recusado' },
    });
    const result = await cli(['invoice', 'get', String(record.id)]);
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(row(result.stdout, 'amount')).toBe('159.90 (as sent; not whole cents)');
    expect(row(result.stdout, 'paid')).toBe('—');
    expect(row(section(result.stdout, 'Fee'), 'fee')).toBe('—');
    expect(row(result.stdout, 'refused reason')).toBe('Cartão recusado');
    const other = section(result.stdout, 'Other fields');
    expect(row(other, 'items')).toBe('none');
    expect(row(other, 'timeline[1]')).toBe('weird');
    const json = await cli(['invoice', 'get', String(record.id), '--json']);
    expect(json.code, json.stderr).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(gateway.record(record.id));
  });

  it('a charge that is not there is exit 4, naming the ref, the gateway, the profile and production\'s message', async () => {
    const result = await cli(['invoice', 'get', '99999']);
    expect(result.code).toBe(4);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain(`pinvoice: no charge "99999" at ${gateway.url} for profile "prod": Transaction not found.`);
  });

  it('a pasted pix code or an order number, which production cannot search, says it needs pinvoice serve (exit 4)', async () => {
    const record = gateway.addRecord();
    const pix = await cli(['invoice', 'get', record.pix.qrCode]);
    expect(pix.code).toBe(4);
    expect(pix.stderr).toContain('finding a charge by its pix code needs `pinvoice serve`\'s search: this gateway looks charges up by id or secureId only, nor is any id the code holds');
    const order = await cli(['invoice', 'get', 'pedido-1042']);
    expect(order.code).toBe(4);
    expect(order.stderr).toContain('finding a charge by its external_id needs `pinvoice serve`\'s search');
    const list = await cli(['invoice', 'list']);
    expect(list.code).toBe(4);
    expect(list.stderr).toContain(`this gateway (${gateway.url}) has no charge listing or search: that is a \`pinvoice serve\` extension`);
  });

  it('a pix code holding the charge\'s secureId is found by it, even without search', async () => {
    const record = gateway.addRecord();
    const code = `000201…${record.secureId}…6304ABCD`;
    const result = await cli(['invoice', 'get', code, '--json']);
    expect(result.code, result.stderr).toBe(0);
    expect(JSON.parse(result.stdout).id).toBe(record.id);
    expect(result.stderr).toContain(`pix code → ${record.secureId} (by the id it holds)`);
  });
});

describe('watching a charge through production\'s statuses', () => {
  /** GETs of the record itself (not of its /events) so far. */
  const polls = (id: number) => gateway.requests.filter((request) => request.method === 'GET' && request.url === `/api/v2/invoices/${id}`).length;

  it('a pending charge that goes through in_analysis to paid ends the watch with exit 0', async () => {
    const { id } = gateway.addRecord();
    const watching = cli(['invoice', 'get', String(id), '--watch', '--interval', '1', '--timeout', '15']);
    await until(() => polls(id) >= 1);
    setStatus(gateway.record(id)!, 'in_analysis');
    await until(() => polls(id) >= 2);
    setStatus(gateway.record(id)!, 'paid');
    const result = await watching;
    expect(result.code, result.stderr).toBe(0);
    tolerated(result);
    expect(row(result.stdout, 'status')).toBe('paid');
    expect(polls(id)).toBeGreaterThanOrEqual(3);
  });

  it('a charge that stays in_analysis past --timeout is exit 8, saying so', async () => {
    const { id } = gateway.addRecord({ status: 'in_analysis' });
    const started = Date.now();
    const result = await cli(['invoice', 'get', String(id), '--watch', '--interval', '1', '--timeout', '2']);
    expect(result.code, result.stderr).toBe(8);
    expect(result.stderr).toContain('pinvoice: still in_analysis after 2 s');
    expect(Date.now() - started).toBeLessThan(6000);
  });

  it('a charge that expires while watched is exit 7', async () => {
    const { id } = gateway.addRecord();
    const watching = cli(['invoice', 'get', String(id), '--watch', '--interval', '1', '--timeout', '15']);
    await until(() => polls(id) >= 1);
    setStatus(gateway.record(id)!, 'expired');
    const result = await watching;
    expect(result.code, result.stderr).toBe(7);
    expect(result.stderr).toContain('pinvoice: the charge ended expired');
    expect(row(result.stdout, 'status')).toBe('expired');
  });
});
