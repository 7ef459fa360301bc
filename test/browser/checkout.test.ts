// The payer's checkout page (GET /checkout/{token}) in a real browser: Debian's Chromium driven by
// playwright-core, against the built `pinvoice serve` as a real process. What a payer sees and does:
// the pix QR scans to the record's code, "Copiar" fills the clipboard, the boleto's line, barcode and
// PDF, 3-D Secure both ways, the sandbox controls with and without JavaScript, live updates however the
// charge changed (the page, the CLI, expiry), escaping, a phone's width, axe-core, nothing from elsewhere.
// Without Chromium the suite is skipped, saying why, except in CI (.ci/run installs it), where it runs.
import { readFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  axeViolations,
  browserSkipReason,
  checkoutUrl,
  createCharge,
  api,
  decodeItfPng,
  decodeQrPng,
  describeViolations,
  getCharge,
  hasChromium,
  launchChromium,
  pdfInfoString,
  pdfStreamDictionaries,
  CHROMIUM,
  type Gateway,
} from '../support/browser.js';
import { CARDS, boletoCharge, cardCharge } from '../support/charges.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { validPix } from '../support/server.js';

const TOKEN = 'pinv_test_browser_checkout_01';
const PHONE = { width: 390, height: 844 };
const CLIPBOARD: BrowserContextOptions = { permissions: ['clipboard-read', 'clipboard-write'] };
/** How long a live change may take to show (the server looks at open pages at least every second). */
const LIVE = { timeout: 10_000, interval: 100 };

/** The typeable line as a payer reads it: 47 digits as `ddddd.ddddd ddddd.dddddd ddddd.dddddd d dddddddddddddd`. */
function formatLine(digits: string): string {
  const match = /^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/.exec(digits);
  if (!match) throw new Error(`not a 47-digit typeable line: ${digits}`);
  return `${match[1]}.${match[2]} ${match[3]}.${match[4]} ${match[5]}.${match[6]} ${match[7]} ${match[8]}`;
}

describe('Chromium in CI', () => {
  it.runIf(process.env.CI === 'true')('is installed (.ci/run installs chromium), so the checkout page is tested in a browser', () => {
    expect(hasChromium, `no Chromium at ${CHROMIUM}`).toBe(true);
  });
});

describe.skipIf(browserSkipReason !== undefined)(`the checkout page in Chromium${browserSkipReason ? ` (skipped: ${browserSkipReason})` : ''}`, () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(() => browser?.close());

  /** Every page the test opened, with what went wrong in it; closed after each test. */
  const opened: { context: BrowserContext; pageErrors: string[] }[] = [];
  afterEach(async () => {
    const errors = opened.flatMap((o) => o.pageErrors);
    await Promise.all(opened.splice(0).map((o) => o.context.close()));
    expect(errors, 'uncaught errors in the page').toEqual([]);
  });

  /** Opens a page in a context of its own; console errors and requests are recorded. */
  async function open(url: string, options: BrowserContextOptions = {}) {
    const context = await browser.newContext(options);
    const page = await context.newPage();
    const pageErrors: string[] = [];
    const consoleErrors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', (error) => pageErrors.push(String(error)));
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('request', (request) => requests.push(request.url()));
    opened.push({ context, pageErrors });
    const response = await page.goto(url);
    if (!response) throw new Error(`no answer for ${url}`);
    return { page, response, consoleErrors, requests };
  }

  /** A `pinvoice serve` for the describe block it is called in, with a profile for the CLI. */
  function useServe(extra: string[] = [], db = ':memory:') {
    const state = {} as { serve: ServeProcess; gateway: Gateway; env: Record<string, string>; db: string };
    beforeAll(async () => {
      const home = tempHome();
      state.db = db;
      state.serve = await serve(['--port', '0', '--db', db, '--token', TOKEN, ...extra], home);
      state.gateway = { url: state.serve.url, token: TOKEN };
      state.env = { ...home, PINVOICE_TOKEN: TOKEN, PINVOICE_BASE_URL: state.serve.url };
    });
    afterAll(() => state.serve?.stop());
    return state;
  }

  const statusText = (page: Page) => page.locator('#charge .status').innerText();
  const announced = (page: Page) => page.locator('#announce').textContent();
  const clipboard = (page: Page) => page.evaluate('navigator.clipboard.readText()');
  const setClipboard = (page: Page, text: string) => page.evaluate(`navigator.clipboard.writeText(${JSON.stringify(text)})`);
  /** Marks the loaded document: a reload or a navigation would lose the mark. */
  const mark = (page: Page) => page.evaluate('window.__marker = 1');
  const marked = (page: Page) => page.evaluate('window.__marker');

  describe('a pix', () => {
    const s = useServe();

    it('shows a QR code that scans to the record\'s pix code, a "Copiar" that fills the clipboard, and the time left', async () => {
      const record = await createCharge(s.gateway, validPix());
      const { page } = await open(checkoutUrl(s.gateway, record), CLIPBOARD);
      expect(await statusText(page)).toBe('Situação: Aguardando pagamento');

      const shot = await page.locator('figure.qr').screenshot();
      expect(decodeQrPng(shot)).toBe(record.pix.qrCode);

      expect(await page.locator('#pix-code').inputValue()).toBe(record.pix.qrCode);
      await setClipboard(page, 'something else');
      await page.locator('[data-copy="pix-code"]').click();
      await expect.poll(() => page.locator('[data-copied-for="pix-code"]').textContent()).toBe('Código copiado.');
      expect(await clipboard(page)).toBe(record.pix.qrCode);

      const countdown = page.locator('.countdown');
      await expect.poll(() => countdown.textContent()).toMatch(/^Tempo restante: (\d+:)?\d{1,2}:\d\d$/);
      const before = await countdown.textContent();
      await expect.poll(() => countdown.textContent(), { timeout: 5000 }).not.toBe(before);
    });
  });

  describe('paying from the page', () => {
    const s = useServe();

    it('"Simular pagamento" with JavaScript: the page shows the payment without a reload', async () => {
      const record = await createCharge(s.gateway, validPix());
      const { page } = await open(checkoutUrl(s.gateway, record));
      await mark(page);
      await page.getByRole('button', { name: 'Simular pagamento' }).click();
      await expect.poll(() => statusText(page), LIVE).toBe('Situação: Pagamento confirmado');
      expect(await announced(page)).toBe('Pagamento confirmado');
      expect(await page.getByRole('heading', { name: 'Pagamento confirmado' }).count()).toBe(1);
      expect(await page.getByRole('button', { name: 'Simular pagamento' }).count()).toBe(0);
      expect(await marked(page)).toBe(1);
      expect((await getCharge(s.gateway, record.id)).status).toBe('paid');
    });

    it('"Simular pagamento" without JavaScript: the form posts and the page that comes back shows paid', async () => {
      const record = await createCharge(s.gateway, validPix());
      const url = checkoutUrl(s.gateway, record);
      const { page } = await open(url, { javaScriptEnabled: false });
      // the page's script did not run: no countdown
      expect(await page.locator('.countdown').textContent()).toBe('');
      const posted = page.waitForResponse((response) => response.request().method() === 'POST', { timeout: 10_000 });
      const back = page.waitForResponse((response) => response.request().isNavigationRequest() && response.request().redirectedFrom()?.method() === 'POST', { timeout: 10_000 });
      back.catch(() => undefined);
      await page.getByRole('button', { name: 'Simular pagamento' }).click();
      // the form as the browser posts it (with its Origin, which the server checks: the page's referrer policy is same-origin)
      const post = await posted;
      expect(post.url()).toBe(`${url}/sandbox/pay`);
      if (post.status() !== 303) expect.fail(`the form's POST (Origin: ${await post.request().headerValue('origin')}) answered ${post.status()}: ${await post.text()}`);
      const answer = await back;
      expect(answer.status()).toBe(200);
      expect(answer.url()).toBe(url);
      await page.waitForLoadState();
      expect(await statusText(page)).toBe('Situação: Pagamento confirmado');
      expect((await getCharge(s.gateway, record.id)).status).toBe('paid');
    });
  });

  describe('changes made elsewhere', () => {
    const s = useServe();

    it('`pinvoice sandbox pay` while the page is open: the page shows it, no reload', async () => {
      const record = await createCharge(s.gateway, validPix());
      const { page, requests } = await open(checkoutUrl(s.gateway, record));
      await mark(page);
      // the page listens (had it not yet, its stream starts with the charge as it is then)
      await expect.poll(() => requests.some((url) => url.endsWith('/live'))).toBe(true);
      const paid = await run(['sandbox', 'pay', String(record.id)], { env: s.env });
      expect(paid.code, paid.stderr).toBe(0);
      await expect.poll(() => statusText(page), LIVE).toBe('Situação: Pagamento confirmado');
      expect(await announced(page)).toBe('Pagamento confirmado');
      expect(await marked(page)).toBe(1);
    });
  });

  describe('a pix that expires while its page is open', () => {
    const s = useServe(['--pix-expiry', '2']);

    it('shows "Expirado" by itself', async () => {
      const record = await createCharge(s.gateway, validPix());
      const { page } = await open(checkoutUrl(s.gateway, record));
      await mark(page);
      await expect.poll(() => statusText(page), LIVE).toBe('Situação: Expirado');
      expect(await announced(page)).toBe('Expirado');
      expect(await page.getByRole('heading', { name: 'Esta cobrança expirou' }).count()).toBe(1);
      expect(await page.locator('figure.qr').count()).toBe(0);
      expect(await marked(page)).toBe(1);
    });
  });

  describe('a boleto', () => {
    const s = useServe();

    it('shows its typeable line (copied by "Copiar"), its barcode, and "Baixar boleto" downloads its PDF', async () => {
      const record = await createCharge(s.gateway, boletoCharge());
      // a barcode of narrow bars is read from a sharp screenshot
      const { page } = await open(checkoutUrl(s.gateway, record), { ...CLIPBOARD, deviceScaleFactor: 3 });
      const line = formatLine(record.boleto.digitableLine);
      expect(await page.locator('#boleto-line').inputValue()).toBe(line);

      await setClipboard(page, 'something else');
      await page.locator('[data-copy="boleto-line"]').click();
      await expect.poll(() => page.locator('[data-copied-for="boleto-line"]').textContent()).toBe('Código copiado.');
      expect(await clipboard(page)).toBe(line);

      const barcode = page.locator('figure.barcode svg');
      expect(await barcode.count()).toBe(1);
      const box = await barcode.boundingBox();
      expect(box?.width).toBeGreaterThan(200);
      expect(decodeItfPng(await barcode.screenshot())).toBe(record.boleto.barcode);

      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Baixar boleto' }).click()]);
      expect(download.suggestedFilename()).toBe(`boleto-${record.secureId}.pdf`);
      const pdf = readFileSync(await download.path());
      expect(pdf.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(pdfInfoString(pdf, 'Subject')).toBe(line);
      expect(pdfStreamDictionaries(pdf).filter((dict) => /\/Type\s*\/XObject/.test(dict) && /\/Subtype\s*\/Image/.test(dict))).not.toEqual([]);
    });
  });

  describe('a card waiting for 3-D Secure', () => {
    const s = useServe();

    it('"Autenticar" pays it', async () => {
      const record = await createCharge(s.gateway, cardCharge(CARDS.requires3ds));
      expect(record.status).toBe('waiting_3ds');
      const { page } = await open(checkoutUrl(s.gateway, record));
      expect(await statusText(page)).toBe('Situação: Aguardando autenticação do cartão');
      await mark(page);
      await page.getByRole('button', { name: 'Autenticar', exact: true }).click();
      await expect.poll(() => statusText(page), LIVE).toBe('Situação: Pagamento confirmado');
      expect(await marked(page)).toBe(1);
      expect((await getCharge(s.gateway, record.id)).status).toBe('paid');
    });

    it('"Falhar autenticação" refuses it, as authentication_failed', async () => {
      const record = await createCharge(s.gateway, cardCharge(CARDS.requires3ds));
      const { page } = await open(checkoutUrl(s.gateway, record));
      await page.getByRole('button', { name: 'Falhar autenticação' }).click();
      await expect.poll(() => statusText(page), LIVE).toBe('Situação: Pagamento recusado');
      expect(await announced(page)).toBe('Pagamento recusado');
      expect(await page.getByRole('heading', { name: 'Pagamento recusado' }).count()).toBe(1);
      expect(await getCharge(s.gateway, record.id)).toMatchObject({ status: 'refused', refusedReason: 'authentication_failed' });
    });
  });

  describe('escaping', () => {
    const ITEM = '<img src=x onerror="window.__pwned=1">';
    const PAYER = '<script>window.__pwned=2</script>';
    const MERCHANT = '<svg onload="window.__pwned=3"></svg>Loja';
    const s = useServe([], join(mkdtempSync(join(tmpdir(), 'pinvoice-browser-')), 'escaping.db'));

    it('an item, a payer and a merchant named like markup show as text and run nothing, also after a live update', async () => {
      // a second company on the same file, with a hostile name (serve company add, beside the running serve)
      const added = await run(['serve', 'company', 'add', '--db', s.db, '--name', MERCHANT, '--json'], { env: s.env });
      expect(added.code, added.stderr).toBe(0);
      const merchant: Gateway = { url: s.gateway.url, token: JSON.parse(added.stdout).token };
      const record = await createCharge(merchant, validPix({
        items: [{ name: ITEM, quantity: 1, unit_price: 1990 }],
        payer: { name: PAYER, email: 'fulano@example.com', cpf_cnpj: '529.982.247-25' },
      }));
      const { page } = await open(checkoutUrl(s.gateway, record));

      const check = async () => {
        expect(await page.locator('#charge .items tbody td').first().innerText()).toBe(ITEM);
        expect(await page.locator('.merchant-name').innerText()).toBe(MERCHANT);
        expect(await page.locator('img, [onerror], [onload]').count()).toBe(0);
        // the only script is the page's own
        expect(await page.evaluate('[...document.scripts].map((s) => new URL(s.src).pathname)')).toEqual(['/checkout/assets/checkout.js']);
        expect(await page.evaluate('typeof window.__pwned')).toBe('undefined');
        // the payer's name is not on the page at all (the page shows the public view only)
        expect(await page.content()).not.toContain('window.__pwned=2');
      };
      expect(await page.title()).toContain(MERCHANT);
      await check();

      // the part of the page that a live update brings is escaped too
      const paid = await api(merchant, 'POST', `/api/v2/sandbox/invoices/${record.id}/pay`);
      expect(paid.status).toBe(200);
      await expect.poll(() => statusText(page), LIVE).toBe('Situação: Pagamento confirmado');
      await check();
    });
  });

  describe('on a phone (390 × 844)', () => {
    const s = useServe();

    it('no page is wider than the screen: pix, boleto, 3-D Secure, paid', async () => {
      const pix = await createCharge(s.gateway, validPix());
      const boleto = await createCharge(s.gateway, boletoCharge());
      const card = await createCharge(s.gateway, cardCharge(CARDS.requires3ds));
      const paid = await createCharge(s.gateway, validPix());
      expect((await api(s.gateway, 'POST', `/api/v2/sandbox/invoices/${paid.id}/pay`)).status).toBe(200);
      const { page } = await open(checkoutUrl(s.gateway, pix), { viewport: PHONE });
      for (const [name, record] of [['pix', pix], ['boleto', boleto], ['3-D Secure', card], ['paid', paid]] as const) {
        await page.goto(checkoutUrl(s.gateway, record));
        const width = await page.evaluate('document.documentElement.scrollWidth');
        expect(width, `the ${name} page`).toBeLessThanOrEqual(PHONE.width);
      }
    });
  });

  describe('accessibility (axe-core)', () => {
    const s = useServe();

    it('no serious or critical violation: pix, boleto, 3-D Secure, paid, refused, expired, and the page of an unknown token', async () => {
      const states: [string, () => Promise<string>][] = [
        ['pix', async () => checkoutUrl(s.gateway, await createCharge(s.gateway, validPix()))],
        ['boleto', async () => checkoutUrl(s.gateway, await createCharge(s.gateway, boletoCharge()))],
        ['3-D Secure', async () => checkoutUrl(s.gateway, await createCharge(s.gateway, cardCharge(CARDS.requires3ds)))],
        ['paid', async () => {
          const record = await createCharge(s.gateway, validPix());
          await api(s.gateway, 'POST', `/api/v2/sandbox/invoices/${record.id}/pay`);
          return checkoutUrl(s.gateway, record);
        }],
        ['refused', async () => checkoutUrl(s.gateway, await createCharge(s.gateway, cardCharge(CARDS.declined)))],
        ['expired', async () => {
          const record = await createCharge(s.gateway, validPix());
          await api(s.gateway, 'POST', `/api/v2/sandbox/invoices/${record.id}/expire`);
          return checkoutUrl(s.gateway, record);
        }],
        ['404', async () => `${s.gateway.url}/checkout/NoSuchCheckoutToken0000000000000`],
      ];
      const { page } = await open(`${s.gateway.url}/checkout/NoSuchCheckoutToken0000000000000`, { bypassCSP: true });
      const found: string[] = [];
      for (const [name, url] of states) {
        const response = await page.goto(await url());
        expect(response?.status(), name).toBe(name === '404' ? 404 : 200);
        const serious = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        if (serious.length > 0) found.push(`the ${name} page:\n${describeViolations(serious)}`);
      }
      expect(found, found.join('\n')).toEqual([]);
    });
  });

  describe('offline and locked down', () => {
    const s = useServe();

    it('every request goes to the server itself; the page forbids inline scripts, sniffing; no console errors', async () => {
      const record = await createCharge(s.gateway, validPix());
      const boleto = await createCharge(s.gateway, boletoCharge());
      const { page, response, requests, consoleErrors } = await open(checkoutUrl(s.gateway, record), CLIPBOARD);
      const headers = response.headers();
      expect(headers['content-security-policy']).toMatch(/default-src 'none'/);
      expect(headers['content-security-policy']).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(headers['x-content-type-options']).toBe('nosniff');
      // the page's script runs under that policy: the countdown, the copy button, the live stream, the controls
      await expect.poll(() => page.locator('.countdown').textContent()).toMatch(/^Tempo restante/);
      await page.locator('[data-copy="pix-code"]').click();
      await expect.poll(() => page.locator('[data-copied-for="pix-code"]').textContent()).toBe('Código copiado.');
      await page.getByRole('button', { name: 'Simular pagamento' }).click();
      await expect.poll(() => statusText(page), LIVE).toBe('Situação: Pagamento confirmado');
      const boletoAnswer = await page.goto(checkoutUrl(s.gateway, boleto));
      expect(boletoAnswer?.headers()['content-security-policy']).toBe(headers['content-security-policy']);

      const origin = new URL(s.gateway.url).origin;
      for (const path of ['/checkout/assets/checkout.css', '/checkout/assets/checkout.js', '/live', '/sandbox/pay']) {
        expect(requests.some((url) => new URL(url).pathname.endsWith(path)), path).toBe(true);
      }
      expect(requests.filter((url) => new URL(url).origin !== origin)).toEqual([]);
      expect(consoleErrors).toEqual([]);
    });
  });
});
