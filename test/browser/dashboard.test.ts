// The sandbox dashboard (/dashboard of `pinvoice serve`) in a real browser: Debian's Chromium driven by
// playwright-core, against the built `pinvoice serve` as a real process, on each engine (this file runs
// in the postgres project too). Sign-in by link and by token, live requests, the charge actions with
// their postbacks, the company's clock and chaos, another company's charge, sign-out, escaping, CSRF,
// where the token never goes, axe-core on every page at a phone's and a desktop's size, the keyboard.
// Every page but axe-core's runs under its own Content-Security-Policy, and anything the policy
// refuses fails the test: the live updates and the forms work as a real browser runs them.
import { createServer, type Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { api, axeViolations, browserSkipReason, createCharge, describeViolations, getCharge, closeWatched, launchChromium, watchedPage, type Gateway, type WatchedPage } from '../support/browser.js';
import { run, serve, tempHome, type ServeProcess } from '../support/cli.js';
import { validPix } from '../support/server.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const LIVE = { timeout: 10_000, interval: 100 };

describe.skipIf(browserSkipReason !== undefined)(`the dashboard in Chromium${browserSkipReason ? ` (skipped: ${browserSkipReason})` : ''}`, () => {
  let browser: Browser;
  let state: { serve: ServeProcess; gateway: Gateway; link: string; env: Record<string, string>; db: string };
  /** a postback receiver: every body it got, answered 200 */
  let receiver: Server;
  let receiverUrl: string;
  const received: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    receiver = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => (body += chunk));
      request.on('end', () => {
        received.push(body);
        response.end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/postbacks`;
    // no --token: serve creates the company and prints its token and a one-time sign-in link
    const home = tempHome();
    const db = join(mkdtempSync(join(tmpdir(), 'pinvoice-dashboard-')), 'dashboard.db');
    const started = await serve(['--port', '0', '--db', db], home);
    stopServe = () => started.stop(); // (stopped after all even if what follows fails)
    for (let waited = 0; !/dashboard\/sign-in\?code=\S+\n/.test(started.stderr()) && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    const token = /(pinv_test_[A-Za-z0-9]+)/.exec(started.stderr())?.[1] ?? '';
    const link = /(http:\/\/\S+\/dashboard\/sign-in\?code=\S+)/.exec(started.stderr())?.[1] ?? '';
    state = { serve: started, gateway: { url: started.url, token }, link, env: { ...home, PINVOICE_TOKEN: token, PINVOICE_BASE_URL: started.url }, db };
  });
  let stopServe = async (): Promise<unknown> => undefined;
  afterAll(async () => {
    await stopServe();
    receiver?.close();
    await browser?.close();
  });

  const opened: WatchedPage[] = [];
  afterEach(async () => {
    const { errors, refused } = await closeWatched(opened);
    expect(errors, 'uncaught errors in the page').toEqual([]);
    expect(refused, 'what the page\'s own CSP refused').toEqual([]);
  });

  /** A page in a context of its own, under the page's own CSP (support/browser.ts watchedPage); checked after each test. */
  async function context(viewport = DESKTOP, { bypassCSP = false } = {}) {
    const made = await watchedPage(browser, viewport, { bypassCSP });
    opened.push(made);
    return made;
  }

  /** A page signed in by pasting the token (the link is spent by its own test). */
  async function signedIn(viewport = DESKTOP, token = state.gateway.token, options: { bypassCSP?: boolean } = {}) {
    const made = await context(viewport, options);
    await made.page.goto(`${state.gateway.url}/dashboard`);
    await made.page.getByLabel('Access token').fill(token);
    await made.page.getByRole('button', { name: 'Sign in' }).click();
    await made.page.waitForURL('**/dashboard/requests');
    return made;
  }

  /** Every URL the page went to, and what its script can read: the token must be in none. */
  async function tokenNowhere(page: Page, visited: string[]) {
    const token = state.gateway.token;
    for (const url of visited) expect(url).not.toContain(token);
    const storage = await page.evaluate('JSON.stringify([Object.entries(localStorage), Object.entries(sessionStorage), document.cookie])');
    expect(storage).not.toContain(token);
    expect(storage).toBe('[[],[],""]'); // the session cookie is HttpOnly: the script sees no cookie at all
  }

  it('signs in once by the link serve printed: a session cookie (HttpOnly, SameSite=Strict), the code gone from the address; the link twice is refused', async () => {
    const { context: made, page } = await context();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => visited.push(frame.url()));
    await page.goto(state.link);
    await page.waitForURL('**/dashboard/requests');
    expect(page.url()).not.toContain('code=');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Requests');
    const cookies = await made.cookies();
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).toEqual([['pinvoice_dashboard', true, 'Strict', '/dashboard']]);
    expect(cookies[0]?.value).not.toContain(state.gateway.token);
    await tokenNowhere(page, visited);

    const again = await context();
    const second = await again.page.goto(state.link);
    expect(second?.status()).toBe(401);
    expect(await again.page.locator('#sign-in-problem').innerText()).toContain('used already or has expired');
  });

  it('signs in by a pasted token; a wrong one is told, and the token is in no URL, storage or journal entry', async () => {
    const { page } = await context();
    const visited: string[] = [];
    page.on('framenavigated', (frame) => visited.push(frame.url()));
    await page.goto(`${state.gateway.url}/dashboard`);
    await page.getByLabel('Access token').fill('pinv_test_not_a_token_of_anyone_0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    expect(await page.locator('#sign-in-problem').innerText()).toContain('No company has this token');
    await page.getByLabel('Access token').fill(state.gateway.token);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL('**/dashboard/requests');
    await tokenNowhere(page, visited);
    // serve's log holds the token only where its first start announced it (the token line and the login line)
    expect(state.serve.stderr().split(state.gateway.token).length - 1).toBe(2);
    const journal = await api(state.gateway, 'GET', '/api/v2/sandbox/requests?limit=500');
    expect(journal.status).toBe(200);
    expect(JSON.stringify(journal.body)).not.toContain(state.gateway.token);
    // the dashboard's own requests are not the API's: none of them is in the journal
    expect(journal.body.data.filter((entry: { path: string }) => entry.path.startsWith('/dashboard'))).toEqual([]);
  });

  it('shows a request made with the CLI within a second, without a reload', async () => {
    const record = await createCharge(state.gateway, validPix());
    const { page } = await signedIn();
    await page.evaluate('window.__marker = 1');
    const got = await run(['invoice', 'get', String(record.id), '--json'], { env: state.env });
    expect(got.code, got.stderr).toBe(0);
    const answered = Date.now(); // (its request was answered before the CLI exited)
    const row = page.locator('#entries tr', { hasText: `/api/v2/invoices/${record.id}` }).first();
    await row.waitFor({ timeout: 5_000 });
    expect(Date.now() - answered).toBeLessThan(1_000);
    expect(await page.evaluate('window.__marker')).toBe(1);
    // its detail: headers, the answer, the charge it touched
    await row.getByRole('link').first().click();
    await expect.poll(() => page.locator('h1').innerText()).toContain(`GET /api/v2/invoices/${record.id}`);
    expect(await page.locator('pre.body').nth(1).innerText()).toContain(record.secureId);
    await page.getByRole('link', { name: `#${record.id}` }).click();
    await expect.poll(() => page.locator('h1').innerText()).toContain(`Charge ${record.id}`);
  });

  it('pays a charge after a confirmation: paid in the API, its postback attempt shown live', async () => {
    const record = await createCharge(state.gateway, validPix({ postback_url: receiverUrl }));
    const { page } = await signedIn();
    await page.goto(`${state.gateway.url}/dashboard/charges/${record.id}`);
    await page.getByRole('link', { name: 'Pay…' }).click();
    expect(await page.locator('form.confirm p').first().innerText()).toContain(`Pay charge ${record.id}`);
    expect((await getCharge(state.gateway, record.id)).status).toBe('pending'); // nothing sent before the confirmation
    await page.getByRole('button', { name: 'Confirm: pay' }).click();
    await page.waitForURL(`**/dashboard/charges/${record.id}?done=pay`);
    expect(await page.locator('.notice').innerText()).toBe('Paid.');
    const paid = await getCharge(state.gateway, record.id);
    expect(paid.status).toBe('paid');
    const tokenName = (await api(state.gateway, 'GET', '/api/v2/sandbox/requests?limit=1')).body.data[0].token_name;
    expect(paid.timeline.at(-1).by).toBe(tokenName); // the session acts as the token it was made with
    await expect.poll(() => received.some((body) => body.includes(record.secureId) && body.includes('paid')), LIVE).toBe(true);
    // the attempt shows on the charge's page (live) and in the requests
    await expect.poll(() => page.locator('.event', { hasText: 'invoice.paid' }).locator('tbody tr').count(), LIVE).toBeGreaterThan(0);
    await page.goto(`${state.gateway.url}/dashboard/requests?direction=out`);
    await expect.poll(() => page.locator('#entries tr', { hasText: 'invoice.paid' }).count(), LIVE).toBeGreaterThan(0);
  });

  it('refunds an amount in reais; an ambiguous amount is refused, naming it, and nothing is refunded', async () => {
    const record = await createCharge(state.gateway, validPix({ total_price_cents: 250_000, items: [{ name: 'TV', quantity: 1, unit_price: 250_000 }] }));
    expect((await api(state.gateway, 'POST', `/api/v2/sandbox/invoices/${record.id}/pay`)).status).toBe(200);
    const { page } = await signedIn();
    await page.goto(`${state.gateway.url}/dashboard/charges/${record.id}/refund`);
    await page.getByLabel(/Amount in reais/).fill('1,234');
    await page.getByRole('button', { name: 'Confirm: refund' }).click();
    expect(await page.locator('#amount-problem').innerText()).toContain('ambiguous');
    expect((await getCharge(state.gateway, record.id)).refundedAmount).toBe(0);
    await page.getByLabel(/Amount in reais/).fill('R$ 1.234,50');
    await page.getByRole('button', { name: 'Confirm: refund' }).click();
    await page.waitForURL(`**/dashboard/charges/${record.id}?done=refund`);
    expect((await getCharge(state.gateway, record.id)).refundedAmount).toBe(123_450);
    expect(await page.locator('section[aria-labelledby=refunds-h]').innerText()).toContain('R$ 1.234,50');
  });

  it('advancing the sandbox clock expires a pending pix; chaos is set and cleared', async () => {
    const record = await createCharge(state.gateway, validPix());
    const { page } = await signedIn();
    await page.goto(`${state.gateway.url}/dashboard/company`);
    await page.getByLabel('Advance by').fill('2');
    await page.getByLabel('Unit').selectOption({ label: 'days' });
    await page.getByRole('button', { name: 'Advance' }).click();
    await page.waitForURL('**/dashboard/company?done=advanced');
    await expect.poll(async () => (await getCharge(state.gateway, record.id)).status, LIVE).toBe('expired');
    expect((await api(state.gateway, 'GET', '/api/v2/sandbox/clock')).body.offset_seconds).toBeGreaterThanOrEqual(2 * 86_400);
    await page.getByLabel('Set to').fill('2030-01-02T03:04:05Z');
    await page.getByRole('button', { name: 'Set', exact: true }).click();
    await page.waitForURL('**/dashboard/company?done=set');
    expect(Date.parse((await api(state.gateway, 'GET', '/api/v2/sandbox/clock')).body.now)).toBeGreaterThanOrEqual(Date.parse('2030-01-02T03:04:05Z'));
    await page.getByRole('button', { name: 'Reset to real time' }).click();
    await page.waitForURL('**/dashboard/company?done=reset');
    expect((await api(state.gateway, 'GET', '/api/v2/sandbox/clock')).body.offset_seconds).toBe(0);

    await page.getByLabel('Send each postback twice').check();
    await page.getByLabel('Fail the first N attempts of each event').fill('2');
    await page.getByRole('button', { name: 'Set chaos' }).click();
    await page.waitForURL('**/dashboard/company?done=chaos');
    const chaos = (await api(state.gateway, 'GET', '/api/v2/sandbox/chaos')).body;
    expect([chaos.active, chaos.duplicate, chaos.drop_first]).toEqual([true, true, 2]);
    await page.getByRole('button', { name: 'Clear chaos' }).click();
    await page.waitForURL('**/dashboard/company?done=cleared');
    expect((await api(state.gateway, 'GET', '/api/v2/sandbox/chaos')).body.active).toBe(false);
  });

  it('finds a charge by id, secureId, order number, pix code and checkout link; filters requests; shows a refusal\'s problems by pointer; resends an event', async () => {
    const record = await createCharge(state.gateway, validPix({ external_id: 'PEDIDO-7781', postback_url: receiverUrl }));
    const { page } = await signedIn();
    const checkout = `${state.gateway.url}/checkout/${record.invoice.token_checkout}`;
    for (const reference of [String(record.id), record.secureId, 'PEDIDO-7781', record.pix.qrCode, checkout]) {
      await page.goto(`${state.gateway.url}/dashboard/charges`);
      await page.getByLabel('Find', { exact: true }).fill(reference);
      await page.getByRole('button', { name: 'Find', exact: true }).click();
      await expect.poll(() => page.locator('#live-region tbody tr').allInnerTexts(), LIVE).toEqual([expect.stringContaining(record.secureId)]);
    }
    // a refused create: its row under the 4xx filter, its problems pointing at the body's members
    expect((await api(state.gateway, 'POST', '/api/v2/invoices', validPix({ total_price_cents: -1 }))).status).toBe(422);
    await page.goto(`${state.gateway.url}/dashboard/requests`);
    await page.getByLabel('Status').selectOption('4xx');
    await page.getByLabel('Method').selectOption('POST');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=4xx/);
    const rows = await page.locator('#entries tr').allInnerTexts();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row).toMatch(/POST[\s\S]*4\d\d/);
    await page.locator('#entries tr a').first().click();
    expect(await page.locator('.problems').innerText()).toContain('/total_price_cents');
    // resend: a second attempt of the event, in the API's history
    await page.goto(`${state.gateway.url}/dashboard/charges/${record.id}`);
    await expect.poll(() => page.locator('.event', { hasText: 'invoice.created' }).locator('tbody tr').count(), LIVE).toBe(1);
    await page.locator('.event', { hasText: 'invoice.created' }).getByRole('link', { name: /^Resend/ }).click();
    await page.getByRole('button', { name: 'Confirm: resend' }).click();
    await page.waitForURL(`**/dashboard/charges/${record.id}?done=resend`);
    await expect.poll(async () => (await api(state.gateway, 'GET', `/api/v2/invoices/${record.id}/events`)).body.data.find((e: { event: string }) => e.event === 'invoice.created').attempts.length, LIVE).toBe(2);
  });

  it("another company's charge is a 404, as in the API", async () => {
    const added = await run(['serve', 'company', 'add', '--db', state.db, '--name', 'Loja Vizinha', '--json'], { env: state.env });
    expect(added.code, added.stderr).toBe(0);
    const other = await createCharge({ url: state.gateway.url, token: JSON.parse(added.stdout).token }, validPix());
    const { page } = await signedIn();
    const answer = await page.goto(`${state.gateway.url}/dashboard/charges/${other.id}`);
    expect(answer?.status()).toBe(404);
    expect(await page.content()).not.toContain(other.secureId);
    expect((await page.goto(`${state.gateway.url}/dashboard/charges/${other.id}/pay`))?.status()).toBe(404);
  });

  it('shows a payer named like markup and a metadata value with </script> as text; CSP forbids inline scripts; a POST without the CSRF token is refused', async () => {
    const NAME = '<img src=x onerror=alert(1)>';
    const META = '</script><script>alert(2)</script>';
    const record = await createCharge(state.gateway, validPix({ payer: { name: NAME, email: 'x@example.com', cpf_cnpj: '529.982.247-25' }, metadata: { note: META } }));
    const { context: made, page, refused } = await signedIn();
    const answer = await page.goto(`${state.gateway.url}/dashboard/charges/${record.id}`);
    const csp = answer?.headers()['content-security-policy'] ?? '';
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(await page.locator('section[aria-labelledby=payer-h]').innerText()).toContain(NAME);
    expect(await page.locator('section[aria-labelledby=meta-h]').innerText()).toContain(META);
    expect(await page.locator('main img, [onerror]').count()).toBe(0);
    expect(await page.evaluate('[...document.scripts].map((s) => new URL(s.src).pathname)')).toEqual(['/dashboard/assets/dashboard.js']);
    // the policy holds in this browser, and what it refuses is seen: an inline script put in the page does not run
    await page.evaluate(`(() => { const s = document.createElement('script'); s.textContent = 'window.__inline = 1'; document.body.append(s); })()`);
    await expect.poll(() => refused.map((line) => line.split(':')[0]).sort(), LIVE).toEqual(['console', 'securitypolicyviolation']);
    expect(refused.find((line) => line.startsWith('securitypolicyviolation'))).toMatch(/^securitypolicyviolation: script-src(-elem)? inline/);
    expect(await page.evaluate('window.__inline')).toBeUndefined();
    refused.splice(0); // (refused as it should be: not a fault of the page)

    // another site's form: the browser sends no cookie (SameSite=Strict); with the cookie and no CSRF token (or the wrong one), refused
    const cookie = (await made.cookies())[0];
    const post = (body: string, origin = state.gateway.url) => fetch(`${state.gateway.url}/dashboard/charges/${record.id}/pay`, {
      method: 'POST', redirect: 'manual', headers: { cookie: `${cookie?.name}=${cookie?.value}`, 'content-type': 'application/x-www-form-urlencoded', origin }, body,
    });
    expect((await post('')).status).toBe(403);
    expect((await post('csrf=forged')).status).toBe(403);
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    expect((await post(`csrf=${csrf}`, 'https://evil.example')).status).toBe(403);
    expect((await getCharge(state.gateway, record.id)).status).toBe('pending');
    expect((await post(`csrf=${csrf}`)).status).toBe(303); // the page's own token, from the page's origin: done
    expect((await getCharge(state.gateway, record.id)).status).toBe('paid');
  });

  it('signing out ends the session everywhere: the cookie kept and sent again opens nothing', async () => {
    const { context: made, page } = await signedIn();
    const cookie = (await made.cookies())[0];
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL('**/dashboard');
    expect(await page.getByLabel('Access token').count()).toBe(1);
    const replay = await fetch(`${state.gateway.url}/dashboard/charges`, { redirect: 'manual', headers: { cookie: `${cookie?.name}=${cookie?.value}` } });
    expect([replay.status, replay.headers.get('location')]).toEqual([303, '/dashboard']);
  });

  it('has no serious or critical axe violation on any page, at 390×844 and 1280×800, and no page wider than a phone', async () => {
    const record = await createCharge(state.gateway, validPix({ postback_url: receiverUrl }));
    await api(state.gateway, 'POST', `/api/v2/sandbox/invoices/${record.id}/pay`);
    const entries = (await api(state.gateway, 'GET', '/api/v2/sandbox/requests?limit=1')).body.data;
    const paths = ['/dashboard/requests', `/dashboard/requests/${entries[0].id}`, '/dashboard/charges', `/dashboard/charges/${record.id}`, `/dashboard/charges/${record.id}/refund`, '/dashboard/company'];
    for (const viewport of [PHONE, DESKTOP]) {
      const signIn = await context(viewport, { bypassCSP: true });
      await signIn.page.goto(`${state.gateway.url}/dashboard`);
      const found = (await axeViolations(signIn.page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(found, `sign-in at ${viewport.width}: ${describeViolations(found)}`).toEqual([]);
      const { page } = await signedIn(viewport, state.gateway.token, { bypassCSP: true });
      for (const path of paths) {
        await page.goto(`${state.gateway.url}${path}`);
        const violations = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(violations, `${path} at ${viewport.width}: ${describeViolations(violations)}`).toEqual([]);
        expect(await page.evaluate('document.documentElement.scrollWidth'), `${path} at ${viewport.width}`).toBeLessThanOrEqual(viewport.width);
      }
    }
  });

  it('works with the keyboard alone: sign in, open a charge, pay it', async () => {
    const record = await createCharge(state.gateway, validPix());
    const { page } = await context();
    await page.goto(`${state.gateway.url}/dashboard`);
    await page.keyboard.press('Tab'); // the skip link
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.id')).toBe('token');
    await page.keyboard.type(state.gateway.token);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/dashboard/requests');
    await page.goto(`${state.gateway.url}/dashboard/charges/${record.id}`);
    for (let k = 0; k < 40 && (await page.evaluate('document.activeElement.textContent')) !== 'Pay…'; k++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/dashboard/charges/${record.id}/pay`);
    for (let k = 0; k < 40 && (await page.evaluate('document.activeElement.textContent')) !== 'Confirm: pay'; k++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/dashboard/charges/${record.id}?done=pay`);
    expect((await getCharge(state.gateway, record.id)).status).toBe('paid');
  });
});
