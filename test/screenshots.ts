// `npm run screenshots`: the checkout page in each state, as docs/checkout.md shows it. Starts the built
// `pinvoice serve` (so `npm run build` first), brings a charge into each state through the API, and
// writes full-page PNGs from Debian's Chromium (or $CHROMIUM_PATH) at a phone's width, 390 px, to
// docs/screenshots/checkout-<state>.png; and the pix page once more on a 1280 px desktop.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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
  } finally {
    await browser.close();
  }
} finally {
  server.stop();
  rmSync(dir, { recursive: true, force: true });
}
