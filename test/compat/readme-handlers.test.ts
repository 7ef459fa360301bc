// The postback handlers of docs/postbacks.md (Node.js and PHP), copied from the file as a merchant would copy
// them, receiving real deliveries from the built `pinvoice serve`: each marks its order paid after
// `sandbox pay` and refuses a forged postback. PHP runs under `php -S`; without php on the machine
// that part is skipped, except in CI (`.ci/run` installs php-cli and sets CI), where it must run.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { readmeBlocks, SIGNATURE_SECTION, writeSample } from '../support/readme.js';
import { closedPort, eventually } from '../support/receiver.js';
import { createCharge, fetchWebhookSecret, pixCheckoutBody, type Gateway } from './merchant.js';

const TOKEN = 'pinv_test_compat_readme_handlers_01';
const CART = [{ name: 'Assinatura mensal', quantity: 1, unitPrice: 2990 }];
const home = tempHome();
let server: ServeProcess;
let gateway: Gateway;
let secret: string;

beforeAll(async () => {
  const db = join(mkdtempSync(join(tmpdir(), 'pinvoice-readme-handlers-')), 'gateway.db');
  server = await serve(['--port', '0', '--db', db, '--token', TOKEN, '--postback-base-delay', '100'], home);
  gateway = { baseUrl: server.url, token: TOKEN };
  secret = await fetchWebhookSecret(gateway);
});
afterAll(() => server?.stop());

async function checkout(postbackUrl: string): Promise<string> {
  const charge = await createCharge(gateway, pixCheckoutBody(`order-${Date.now()}`, CART, postbackUrl));
  if (!charge.ok) throw new Error(`checkout failed: ${charge.message}`);
  return charge.invoiceId;
}

const pay = async (invoiceId: string) => {
  const paid = await run(['sandbox', 'pay', invoiceId], { env: { ...home, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: server.url } });
  expect(paid.code, paid.stderr).toBe(0);
};

/** A postback that did not come from the server: signed with a guessed secret. */
async function forge(url: string, invoiceId: string): Promise<number> {
  const body = JSON.stringify({ id: invoiceId, event: 'invoice.paid', status: 'paid', total: 2990, method: 'pix' });
  const signature = createHmac('sha256', 'whsec_guessed').update(body).digest('hex');
  return (await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', 'x-webhook-signature': signature } })).status;
}

describe('the docs\' Node.js handler', () => {
  let app: Server;
  let url: string;
  const paid: string[] = [];

  beforeAll(async () => {
    const [handler] = readmeBlocks(SIGNATURE_SECTION, 'js');
    type Make = (secret: string, onPaid: (id: string) => void) => Parameters<typeof createServer>[1];
    const { postbackHandler } = (await import(pathToFileURL(writeSample('handler.mjs', handler ?? '')).href)) as { postbackHandler: Make };
    app = createServer(postbackHandler(secret, (id) => void paid.push(id)));
    await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/postbacks`;
  });
  afterAll(() => new Promise((resolve) => app.close(resolve)));

  it('marks the order paid after sandbox pay, and refuses a forged postback', async () => {
    const invoiceId = await checkout(url);
    expect(await forge(url, invoiceId)).toBe(401);
    expect(paid).toEqual([]);
    await pay(invoiceId);
    await eventually(() => paid.includes(invoiceId), 8000, 'the docs\' handler to see the payment');
    expect(paid).toEqual([invoiceId]);
  });
});

const hasPhp = spawnSync('php', ['--version']).status === 0;
const ci = Boolean(process.env.CI);

describe('PHP in CI', () => {
  it.runIf(ci)('is installed (.ci/run installs php-cli), so the PHP handler of the docs is tested', () => {
    expect(hasPhp).toBe(true);
  });
});

describe.skipIf(!hasPhp)(`the docs' PHP handler${hasPhp ? '' : ' (skipped: no php on this machine; .ci/run installs php-cli)'}`, () => {
  let php: ChildProcess;
  let url: string;
  let log: string;

  beforeAll(async () => {
    const [script] = readmeBlocks(SIGNATURE_SECTION, 'php');
    const path = writeSample('postback.php', script ?? '');
    const dir = dirname(path);
    log = join(dir, 'paid.log');
    // the merchant's own mark_order_paid, which the page leaves to them, then the page's script
    const router = join(dir, 'router.php');
    writeFileSync(router, "<?php\nfunction mark_order_paid($id) { file_put_contents(getenv('PAID_LOG'), $id . \"\\n\", FILE_APPEND); }\nrequire __DIR__ . '/postback.php';\n");
    const port = await closedPort();
    url = `http://127.0.0.1:${port}/postback.php`;
    php = spawn('php', ['-S', `127.0.0.1:${port}`, router], {
      env: { PATH: process.env.PATH, PINVOICE_WEBHOOK_SECRET: secret, PAID_LOG: log },
      stdio: 'ignore',
    });
    await eventually(async () => (await fetch(url).catch(() => undefined))?.status === 401, 8000, 'php -S to answer');
  });
  afterAll(() => php?.kill());

  const paidIds = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean) : []);

  it('marks the order paid after sandbox pay, and refuses a forged postback', async () => {
    const invoiceId = await checkout(url);
    expect(await forge(url, invoiceId)).toBe(401);
    expect(paidIds()).toEqual([]);
    await pay(invoiceId);
    await eventually(() => paidIds().includes(invoiceId), 8000, 'the docs\' PHP handler to see the payment');
    expect(paidIds()).toEqual([invoiceId]);
  });
});
