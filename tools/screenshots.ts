// `npm run screenshots`: the checkout page in each state, as docs/checkout.md shows it. Starts the built
// `pinvoice serve` (so `npm run build` first), brings a charge into each state through the API, and
// writes full-page PNGs from Debian's Chromium (or $CHROMIUM_PATH) at a phone's width, 390 px, to
// docs/screenshots/checkout-<state>.png; and the pix page once more on a 1280 px desktop.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { main, startServe, tempDir, TOKEN } from '../bench/serve-process.js';
import { CARDS, boletoCharge, cardCharge } from '../test/support/charges.js';
import { api, checkoutUrl, CHROMIUM, createCharge, hasChromium, launchChromium, type Gateway } from '../test/support/browser.js';
import { validPix } from '../test/support/server.js';

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

await main(async () => {
  if (!hasChromium) throw new Error(`no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set CHROMIUM_PATH)`);
  mkdirSync(OUT, { recursive: true });
  const server = await startServe(join(tempDir(), 'screenshots.db'));
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
    await server.stop();
  }
});
