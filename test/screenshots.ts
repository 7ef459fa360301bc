// `npm run screenshots`: the checkout page in each state, as docs/checkout.md shows it, and every page of
// the dashboard. Starts the built `pinvoice serve` (so `npm run build` first), brings a charge into each
// state through the API, and writes full-page PNGs from Debian's Chromium (or $CHROMIUM_PATH) at a
// phone's width, 390 px, to docs/screenshots/checkout-<state>.png, and the pix page once more on a
// 1280 px desktop; the dashboard's pages at 390×844 and 1280×800, docs/screenshots/dashboard-<page>-<size>.png.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { CARDS, boletoCharge, cardCharge } from './support/charges.js';
import { api, checkoutUrl, CHROMIUM, createCharge, hasChromium, launchChromium, type Gateway } from './support/browser.js';
import { validPix } from './support/server.js';

const TOKEN = 'pinv_test_screenshots_token_0001';
const BIN = new URL('../bin/pinvoice.js', import.meta.url).pathname;

/** `pinvoice serve` on a throwaway database; resolves with its URL and a stop. */
async function startServe(dir: string): Promise<{ url: string; stop(): void }> {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', join(dir, 'screenshots.db'), '--token', TOKEN],
    { env: { PATH: process.env.PATH, HOME: dir, XDG_CONFIG_HOME: join(dir, 'config'), NO_COLOR: '1' }, stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout?.on('data', (chunk) => {
      out += chunk;
      const match = /^listening on (\S+)/.exec(out);
      if (match?.[1]) resolve(match[1]);
    });
    child.once('exit', (code) => reject(new Error(`serve exited (${code}) before listening`)));
  });
  return { url, stop: () => void child.kill('SIGTERM') };
}

const OUT = new URL('../docs/screenshots/', import.meta.url).pathname;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function paidPix(gateway: Gateway) {
  const record = await createCharge(gateway, validPix());
  const paid = await api(gateway, 'POST', `/api/v2/sandbox/invoices/${record.id}/pay`);
  if (paid.status !== 200) throw new Error(`sandbox pay answered ${paid.status}`);
  return record;
}

async function expiredPix(gateway: Gateway) {
  const record = await createCharge(gateway, validPix());
  const expired = await api(gateway, 'POST', `/api/v2/sandbox/invoices/${record.id}/expire`);
  if (expired.status !== 200) throw new Error(`sandbox expire answered ${expired.status}`);
  return record;
}

/** Waits for what the page's script draws (the time left on a pix), then writes the whole page. */
async function shoot(page: Page, url: string, name: string, expectedStatus = 200): Promise<void> {
  const response = await page.goto(url);
  if (response?.status() !== expectedStatus) throw new Error(`${url} answered ${response?.status()}, not ${expectedStatus}`);
  if ((await page.locator('.countdown').count()) > 0) await page.waitForFunction("document.querySelector('.countdown').textContent !== ''");
  const path = join(OUT, `checkout-${name}.png`);
  await page.screenshot({ path, fullPage: true });
  console.log(`wrote ${path}`);
}

/** The dashboard's pages, signed in by the token, with a paid charge whose postback was answered and a refused create in the journal. */
async function dashboard(browser: Browser, gateway: Gateway, pix: { id: number }): Promise<void> {
  const receiver = createServer((request, response) => request.resume().on('end', () => response.end('ok')));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  try {
    const postbacks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/postbacks`;
    const paid = await createCharge(gateway, validPix({ postback_url: postbacks, metadata: { order: '1042' } }));
    await api(gateway, 'POST', `/api/v2/sandbox/invoices/${paid.id}/pay`);
    await api(gateway, 'POST', `/api/v2/invoices/${paid.id}/refund`, { amount_cents: 500, reason: 'one item returned' });
    await api(gateway, 'POST', '/api/v2/invoices', validPix({ total_price_cents: -5 }));
    await api(gateway, 'GET', `/api/v2/invoices/${pix.id}`);
    // the postback attempts, answered, before the pages are drawn
    for (let k = 0; k < 50 && (await api(gateway, 'GET', `/api/v2/invoices/${paid.id}/events`)).body.data.some((e: { state: string }) => e.state === 'pending'); k++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const entries = (await api(gateway, 'GET', '/api/v2/sandbox/requests?status=4xx')).body.data;
    const pages: [string, string][] = [
      ['sign-in', '/dashboard'],
      ['requests', '/dashboard/requests'],
      ['entry', `/dashboard/requests/${entries[0].id}`],
      ['charges', '/dashboard/charges'],
      ['charge', `/dashboard/charges/${paid.id}`],
      ['refund', `/dashboard/charges/${paid.id}/refund`],
      ['company', '/dashboard/company'],
    ];
    for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
      const context = await browser.newContext({ viewport });
      const page = await context.newPage();
      for (const [name, path] of pages) {
        if (name === 'requests') {
          await page.getByLabel('Access token').fill(TOKEN);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.waitForURL('**/dashboard/requests');
        }
        await page.goto(`${gateway.url}${path}`);
        const file = join(OUT, `dashboard-${name}-${size}.png`);
        await page.screenshot({ path: file, fullPage: true });
        console.log(`wrote ${file}`);
      }
      await context.close();
    }
  } finally {
    receiver.close();
  }
}

if (!hasChromium) throw new Error(`no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set CHROMIUM_PATH)`);
mkdirSync(OUT, { recursive: true });
const dir = mkdtempSync(join(tmpdir(), 'pinvoice-screenshots-'));
const server = await startServe(dir);
try {
  const browser = await launchChromium();
  try {
    const gateway: Gateway = { url: server.url, token: TOKEN };
    const pix = await createCharge(gateway, validPix());
    const states: [string, string, number?][] = [
      ['pix', checkoutUrl(gateway, pix)],
      ['boleto', checkoutUrl(gateway, await createCharge(gateway, boletoCharge()))],
      ['3ds', checkoutUrl(gateway, await createCharge(gateway, cardCharge(CARDS.requires3ds)))],
      ['paid', checkoutUrl(gateway, await paidPix(gateway))],
      ['expired', checkoutUrl(gateway, await expiredPix(gateway))],
      ['404', `${server.url}/checkout/NoSuchCheckoutToken0000000000000`, 404],
    ];
    const phone = await browser.newPage({ viewport: PHONE });
    for (const [name, url, status] of states) await shoot(phone, url, name, status);
    const desktop = await browser.newPage({ viewport: DESKTOP });
    await shoot(desktop, checkoutUrl(gateway, pix), 'pix-desktop');
    await dashboard(browser, gateway, pix);
  } finally {
    await browser.close();
  }
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
