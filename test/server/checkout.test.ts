// The payer's checkout page over HTTP (the browser suite, test/browser, drives it in Chromium): what it
// shows and hides, its headers, the boleto's PDF, its controls as plain forms, and its live stream.
import { afterEach, describe, expect, it } from 'vitest';
import { formatBRL } from '../../src/domain/money.js';
import { CARDS, boletoCharge, cardCharge, create, sandbox } from '../support/charges.js';
import { request, startTestServer, validPix, type TestServer } from '../support/server.js';

const open: TestServer[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((server) => server.close()));
});

async function server(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const s = await startTestServer(options);
  open.push(s);
  return s;
}

const page = (s: TestServer, token: string, path = '', init?: RequestInit) => fetch(`${s.url}/checkout/${token}${path}`, { redirect: 'manual', ...init });
const form = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: '' };
const json = { method: 'POST', headers: { accept: 'application/json' } };

describe('the checkout page', () => {
  it('shows the merchant, the amount, the items and the status in Portuguese, and nothing the payer should not see', async () => {
    const s = await server();
    const pix = await create(s, validPix({ total_price_cents: 123456, items: [{ name: 'Camiseta', quantity: 2, unit_price: 61728 }] }));
    const response = await page(s, pix.invoice.token_checkout);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const body = await response.text();
    expect(body).toMatch(/^<!doctype html>\n<html lang="pt-BR">/);
    expect(body).toContain('R$ 1.234,56');
    expect(body).toContain(pix.enterprise.fantasy_name);
    expect(body).toContain('<td>Camiseta</td><td class="num">2</td>');
    expect(body).toContain('Aguardando pagamento');
    expect(body).toContain(`<textarea id="pix-code" class="code" readonly rows="5" spellcheck="false">${pix.pix.qrCode.replace(/&/g, '&#38;')}</textarea>`);
    expect(body).toMatch(/<figure class="qr" role="img" aria-label="QR code do Pix"><svg /);
    // no payer data, no fees, no balances
    for (const hidden of ['529.982.247-25', '52998224725', 'fulano@example.com', 'Fulano de Tal', 'balance', 'Taxa', formatBRL(pix.fee.estimatedFee), formatBRL(pix.fee.netAmount)]) expect(body).not.toContain(hidden);
    // nothing from elsewhere: the stylesheet and the script are the server's own
    expect([...body.matchAll(/(?:src|href)="([^"]*)"/g)].map((m) => m[1]).filter((url) => !url?.startsWith('/checkout/') && url !== 'data:,')).toEqual([]);
  });

  it('answers with a Content-Security-Policy without inline scripts, nosniff, no caching and no referrer', async () => {
    const s = await server();
    const pix = await create(s, validPix());
    for (const path of ['', '/live']) {
      const response = await page(s, pix.invoice.token_checkout, path);
      const csp = response.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("default-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('cache-control')).toBe('no-store');
      await response.body?.cancel();
    }
    for (const [name, type] of [['checkout.css', 'text/css; charset=utf-8'], ['checkout.js', 'text/javascript; charset=utf-8']]) {
      const asset = await fetch(`${s.url}/checkout/assets/${name}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get('content-type')).toBe(type);
      expect(asset.headers.get('x-content-type-options')).toBe('nosniff');
      expect((await asset.text()).length).toBeGreaterThan(500);
    }
  });

  it('is a 404 page for an unknown or malformed token, and for an unknown asset', async () => {
    const s = await server();
    for (const path of ['/checkout/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', '/checkout/..%2F..%2Fetc', '/checkout/assets/..%2Fpackage.json', '/checkout/AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA/boleto.pdf']) {
      const response = await fetch(`${s.url}${path}`);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await response.text()).toContain('<h1>Cobrança não encontrada</h1>');
    }
  });

  it('escapes every string that comes from data', async () => {
    const s = await server();
    const hostile = '<img src=x onerror="alert(1)">&\'';
    const pix = await create(s, validPix({ items: [{ name: hostile, quantity: 1, unit_price: 1990 }] }));
    const body = await (await page(s, pix.invoice.token_checkout)).text();
    expect(body).toContain('&#60;img src=x onerror=&#34;alert(1)&#34;&#62;&#38;&#39;');
    expect(body).not.toContain('<img');
    expect(body).not.toContain('onerror="');
  });

  it('shows a boleto: its typeable line, due date and barcode, and "Baixar boleto" gives its PDF', async () => {
    const s = await server();
    const boleto = await create(s, boletoCharge());
    const token = boleto.invoice.token_checkout;
    const body = await (await page(s, token)).text();
    const line = boleto.boleto.digitableLine.replace(/^(\d{5})(\d{5})(\d{5})(\d{6})(\d{5})(\d{6})(\d)(\d{14})$/, '$1.$2 $3.$4 $5.$6 $7 $8');
    expect(body).toContain(`>${line}</textarea>`);
    expect(body).toContain(`>${boleto.boleto.dueDate.split('-').reverse().join('/')}</time>`);
    expect(body).toMatch(/<figure class="barcode" role="img" aria-label="Código de barras do boleto"><svg /);
    expect(body).toContain(`href="/checkout/${token}/boleto.pdf" download>Baixar boleto</a>`);
    const pdf = await page(s, token, '/boleto.pdf');
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(pdf.headers.get('content-disposition')).toBe(`attachment; filename="boleto-${boleto.secureId}.pdf"`);
    const bytes = Buffer.from(await pdf.arrayBuffer()).toString('latin1');
    expect(bytes.startsWith('%PDF-')).toBe(true);
    // its Info dictionary's Subject is the line: an indirect string object
    const subject = /\/Subject (\d+) 0 R/.exec(bytes)?.[1];
    expect(bytes).toContain(`\n${subject} 0 obj\n(${line})\nendobj`);
    expect(bytes).toContain('/Subtype /Image');
    // a pix has no slip
    const pix = await create(s, validPix());
    expect((await page(s, pix.invoice.token_checkout, '/boleto.pdf')).status).toBe(404);
  });
});

describe('the page controls', () => {
  it('sandbox controls work as plain forms: the answer sends the browser back to the page, which shows the change', async () => {
    const s = await server();
    const pix = await create(s, validPix());
    const token = pix.invoice.token_checkout;
    const answer = await page(s, token, '/sandbox/pay', form);
    expect(answer.status).toBe(303);
    expect(answer.headers.get('location')).toBe(`/checkout/${token}`);
    expect((await request(s, 'GET', `/api/v2/invoices/${pix.id}`)).body).toMatchObject({ status: 'paid' });
    const after = await (await page(s, token)).text();
    expect(after).toContain('Pagamento confirmado');
    expect(after).not.toContain('Simular pagamento');
    // a control that no longer applies: back to the page (a form), or 409 (the script)
    expect((await page(s, token, '/sandbox/cancel', form)).status).toBe(303);
    expect((await page(s, token, '/sandbox/cancel', json)).status).toBe(409);
    expect((await request(s, 'GET', `/api/v2/invoices/${pix.id}`)).body).toMatchObject({ status: 'paid' });
  });

  it('expire and cancel; the script gets JSON; another site cannot post', async () => {
    const s = await server();
    const [one, two, three] = [await create(s, validPix()), await create(s, validPix()), await create(s, validPix())];
    expect(await (await page(s, one.invoice.token_checkout, '/sandbox/expire', json)).json()).toEqual({ status: 'expired' });
    expect(await (await page(s, two.invoice.token_checkout, '/sandbox/cancel', json)).json()).toEqual({ status: 'canceled' });
    const foreign = await page(s, three.invoice.token_checkout, '/sandbox/pay', { ...form, headers: { ...form.headers, origin: 'https://evil.example' } });
    expect(foreign.status).toBe(403);
    for (const origin of ['null', 'not a url']) expect((await page(s, three.invoice.token_checkout, '/sandbox/pay', { ...form, headers: { ...form.headers, origin } })).status).toBe(403);
    const own = await page(s, three.invoice.token_checkout, '/sandbox/pay', { ...form, headers: { ...form.headers, origin: s.url } });
    expect(own.status).toBe(303);
    expect((await page(s, three.invoice.token_checkout, '/sandbox/chargeback', form)).status).toBe(404);
  });

  it('the 3-D Secure challenge follows the rules of Active 3ds: Autenticar pays, Falhar refuses', async () => {
    const s = await server();
    const ok = await create(s, cardCharge(CARDS.requires3ds));
    const ko = await create(s, cardCharge(CARDS.requires3ds));
    expect(ok.status).toBe('waiting_3ds');
    const challenge = await (await page(s, ok.invoice.token_checkout)).text();
    expect(challenge).toContain('Autenticação 3-D Secure');
    expect(challenge).toContain('>Autenticar</button>');
    expect(challenge).toContain('>Falhar autenticação</button>');
    expect((await page(s, ok.invoice.token_checkout, '/3ds/authenticate', form)).status).toBe(303);
    expect((await page(s, ko.invoice.token_checkout, '/3ds/fail', form)).status).toBe(303);
    expect((await request(s, 'GET', `/api/v2/invoices/${ok.id}`)).body).toMatchObject({ status: 'paid', card: { threeDSecure: 'authenticated' } });
    expect((await request(s, 'GET', `/api/v2/invoices/${ko.id}`)).body).toMatchObject({ status: 'refused', refusedReason: 'authentication_failed', card: { threeDSecure: 'failed' } });
    expect(await (await page(s, ko.invoice.token_checkout)).text()).toContain('Pagamento recusado');
    // only a charge waiting for it
    const pix = await create(s, validPix());
    expect((await page(s, pix.invoice.token_checkout, '/3ds/authenticate', json)).status).toBe(409);
  });
});

/** Reads server-sent events from a stream, one `event: update` at a time; `close()` ends it. */
function updates(response: Response) {
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  async function next(timeoutMs = 5000): Promise<{ status: string; html: string; version: string; label: string }> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const end = buffer.indexOf('\n\n');
      if (end >= 0) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = /^data: (.*)$/m.exec(message)?.[1];
        if (/^event: update$/m.test(message) && data) return JSON.parse(data);
        continue;
      }
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('no update in time');
      let timer: NodeJS.Timeout | undefined;
      const chunk = await Promise.race([reader.read(), new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('no update in time')), left)))]);
      clearTimeout(timer);
      if (chunk.done) throw new Error('the stream ended');
      buffer += decoder.decode(chunk.value, { stream: true });
    }
  }
  return Object.assign(next, { close: () => reader.cancel() });
}

describe('live updates', () => {
  it('the stream sends the state at once, then the changed part of the page whenever the charge changes, however', async () => {
    const s = await server({ pixExpirySeconds: 2 });
    const pix = await create(s, validPix());
    const other = await create(s, validPix());
    const live = await page(s, pix.invoice.token_checkout, '/live');
    expect(live.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const next = updates(live);
    const first = await next();
    expect(first).toMatchObject({ status: 'pending', label: 'Aguardando pagamento' });
    expect(first.html).toContain('Pague com Pix');
    // a change through the API (as the CLI's sandbox pay makes it)
    expect((await sandbox(s, pix.id, 'pay')).status).toBe(200);
    const paid = await next();
    expect(paid).toMatchObject({ status: 'paid', label: 'Pagamento confirmado' });
    expect(paid.html).toContain('Recebemos o seu pagamento');
    expect(paid.version).not.toBe(first.version);
    await next.close();
    // expiry by time, which nobody asks for
    const otherLive = updates(await page(s, other.invoice.token_checkout, '/live'));
    expect((await otherLive()).status).toBe('pending');
    expect(await otherLive(6000)).toMatchObject({ status: 'expired', label: 'Expirado' });
    await otherLive.close();
  });

  it('the page carries the version of its state, so a stream that finds nothing new changes nothing', async () => {
    const s = await server();
    const pix = await create(s, validPix());
    const body = await (await page(s, pix.invoice.token_checkout)).text();
    const version = /data-version="([^"]+)"/.exec(body)?.[1];
    const next = updates(await page(s, pix.invoice.token_checkout, '/live'));
    expect((await next()).version).toBe(version);
    await next.close();
  });

  it("counts down on the company's sandbox clock, and the controls act in the company's time", async () => {
    const s = await server();
    await request(s, 'POST', '/api/v2/sandbox/clock/advance', { body: { seconds: 7200 } });
    const pix = await create(s, validPix());
    const body = await (await page(s, pix.invoice.token_checkout)).text();
    expect(body).toContain(`data-expires="${pix.pix.expiresAt}" data-clock-offset="7200000"`);
    expect((await page(s, pix.invoice.token_checkout, '/sandbox/pay', json)).status).toBe(200);
    const paid = (await request(s, 'GET', `/api/v2/invoices/${pix.id}`)).body;
    expect(Date.parse(paid.paidAt) - Date.now()).toBeGreaterThan(7_100_000);
  });
});
