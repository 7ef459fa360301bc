// A proxy's dashboard (/_pinvoice/dashboard of `pinvoice proxy`) in a real browser: Debian's Chromium
// driven by playwright-core, the built `pinvoice proxy` in front of the production stand-in. The link
// it printed signs in once; an exchange through the proxy appears live; its entry shows its findings
// (a planted unknown member); a value with <script> in the answer is shown as text; sign-out ends the
// session; axe-core on the requests and entry pages. Every page but axe-core's runs under its own
// Content-Security-Policy, and anything the policy refuses fails the test. (SQLite project only: the
// proxy's journal is a SQLite file whatever the engine.)
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { axeViolations, browserSkipReason, describeViolations, closeWatched, launchChromium, watchedPage, type WatchedPage } from '../support/browser.js';
import { PLANTED } from '../support/planted-drifts.js';
import { raw, rig, type Rig } from '../support/proxy.js';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const LIVE = { timeout: 10_000, interval: 100 };
const BASE = '/_pinvoice/dashboard';
const SCRIPT = '<script>window.__pwned = 1</script>';

/** The planted unknown member (risk_score), its payer named with a script tag. */
function plantedWithScript(id: number) {
  const item = PLANTED.find((p) => p.name.startsWith('unknown-field:'));
  if (!item) throw new Error('no unknown-field drift planted');
  const body = structuredClone(item.answer.body) as Record<string, any>;
  body.client.name = `${SCRIPT} Maria`;
  return { ...item, path: item.path.replace(/id=\d+/, `id=${id}`), answer: { ...item.answer, body } };
}

describe.skipIf(browserSkipReason !== undefined)(`a proxy's dashboard in Chromium${browserSkipReason ? ` (skipped: ${browserSkipReason})` : ''}`, () => {
  let browser: Browser;
  let r: Rig;
  let link: string;

  beforeAll(async () => {
    browser = await launchChromium();
    r = await rig(false);
    for (let waited = 0; !/dashboard: \S+\s/.test(r.proxy.stderr()) && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    link = /dashboard: (http:\/\/\S+\/_pinvoice\/dashboard\/sign-in\?code=\S+) {2}\(one-time, 10 minutes\)/.exec(r.proxy.stderr())?.[1] ?? '';
  });
  afterAll(async () => {
    await r?.close();
    await browser?.close();
  });

  const opened: WatchedPage[] = [];
  afterEach(async () => {
    const { errors, refused } = await closeWatched(opened);
    expect(errors, 'uncaught errors in the page').toEqual([]);
    expect(refused, "what the page's own CSP refused").toEqual([]);
  });

  async function context(viewport = DESKTOP, options: { bypassCSP?: boolean } = {}) {
    const made = await watchedPage(browser, viewport, options);
    opened.push(made);
    return made;
  }

  /** A page signed in by pasting the inspector token (the link is spent by its own test). */
  async function signedIn(viewport = DESKTOP, options: { bypassCSP?: boolean } = {}) {
    const made = await context(viewport, options);
    await made.page.goto(`${r.proxy.url}${BASE}`);
    await made.page.getByLabel('Inspector token').fill(r.proxy.token);
    await made.page.getByRole('button', { name: 'Sign in' }).click();
    await made.page.waitForURL(`**${BASE}/requests`);
    return made;
  }

  /** An exchange through the proxy with an unknown member and a script tag in its answer; its entry's id. */
  async function plantedExchange(id: number): Promise<number> {
    const item = plantedWithScript(id);
    r.gateway.plant({ method: item.method, path: item.path, answer: item.answer });
    const answer = await raw(`${r.proxy.url}${item.path}`, { headers: r.auth });
    expect(answer.status).toBe(200);
    return answer.entry;
  }

  it('signs in once by the link the proxy printed: a session cookie (HttpOnly, SameSite=Strict, the dashboard\'s path), the code gone; the link twice is refused', async () => {
    expect(link, `the proxy's stderr: ${r.proxy.stderr()}`).not.toBe('');
    const { context: made, page } = await context();
    await page.goto(link);
    await page.waitForURL(`**${BASE}/requests`);
    expect(page.url()).not.toContain('code=');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Requests');
    expect(await page.title()).toBe(`Requests · pinvoice proxy ${r.gateway.url}`);
    expect(await page.locator('.brand').innerText()).toContain(`proxy · ${r.gateway.url}`);
    expect(await page.locator('nav[aria-label="Dashboard"] a').allInnerTexts()).toEqual(['Requests']);
    const cookies = await made.cookies();
    expect(cookies).toHaveLength(1);
    expect(cookies[0]).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: BASE });
    expect(await page.content()).not.toContain(r.proxy.token);

    const again = await context();
    const refused = await again.page.goto(link);
    expect(refused?.status()).toBe(401);
    expect(await again.page.locator('.field-problem').innerText()).toContain('used already or has expired');
    expect(await again.context.cookies()).toEqual([]);
  });

  it('refuses a token that is not the inspector token', async () => {
    const { page } = await context();
    await page.goto(`${r.proxy.url}${BASE}`);
    await page.getByLabel('Inspector token').fill(`${r.proxy.token}x`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('.field-problem').innerText()).toContain("not this proxy's inspector token");
    expect(page.url()).toBe(`${r.proxy.url}${BASE}/sign-in`);
  });

  it('shows an exchange live, without a reload; its entry page lists its findings and shows the answer\'s <script> as text', async () => {
    const { page } = await signedIn();
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    const id = await plantedExchange(7101);
    const row = page.locator(`tr[data-id="${id}"]`);
    await expect.poll(() => row.count(), LIVE).toBe(1);
    expect(navigations, 'the page was not reloaded').toEqual([]);
    expect(await row.locator('.path').innerText()).toBe('/api/v2/invoices');
    expect(Number(await row.locator('[class*="findings-"]').innerText())).toBeGreaterThanOrEqual(1);

    await row.getByRole('link', { name: `Entry ${id}` }).click();
    await page.waitForURL(`**${BASE}/requests/${id}`);
    const findings = page.locator('section[aria-labelledby="findings-h"] tbody tr');
    const rows = await findings.allInnerTexts();
    expect(rows.some((text) => /^info\s+unknown-field\s+answer\s+\/risk_score\s/.test(text)), rows.join('\n')).toBe(true);
    expect(await page.locator('section[aria-labelledby="answer-h"] pre').innerText()).toContain(SCRIPT);
    expect(await page.evaluate('window.__pwned')).toBeUndefined();
    expect(await page.locator('script').count()).toBe(1); // the dashboard's own, nothing from the answer
    // a proxy's entry: no sandbox clock; the merchant's production token by its hint only, the inspector token nowhere
    const details = await page.locator('dl.kv').first().innerText();
    expect(details).not.toContain('Sandbox time');
    expect(details).toMatch(/Token\s+\S+/);
    const content = await page.content();
    expect(content).not.toContain(r.gateway.token);
    expect(content).not.toContain(r.proxy.token);
  });

  it('signs out: the session ends (its cookie no longer opens a page), and a sign-out without the CSRF token is refused', async () => {
    const { context: made, page } = await signedIn();
    const cookie = (await made.cookies())[0];
    const asCookie = { cookie: `${cookie?.name}=${cookie?.value}` };
    const forged = await fetch(`${r.proxy.url}${BASE}/sign-out`, { method: 'POST', headers: { ...asCookie, 'content-type': 'application/x-www-form-urlencoded' }, body: 'csrf=nope', redirect: 'manual' });
    expect(forged.status).toBe(403);
    expect((await fetch(`${r.proxy.url}${BASE}/requests`, { headers: asCookie, redirect: 'manual' })).status).toBe(200);

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(`**${BASE}`);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Sign in');
    await page.goto(`${r.proxy.url}${BASE}/requests`);
    expect(await page.locator('h1').innerText()).toBe('Sign in');
    const after = await fetch(`${r.proxy.url}${BASE}/requests`, { headers: asCookie, redirect: 'manual' });
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe(BASE);
  });

  it('has no serious or critical axe-core violation on the requests and entry pages, at a phone\'s and a desktop\'s size', async () => {
    const id = await plantedExchange(7102);
    for (const viewport of [PHONE, DESKTOP]) {
      const { page } = await signedIn(viewport, { bypassCSP: true });
      for (const path of ['/requests', `/requests/${id}`]) {
        await page.goto(`${r.proxy.url}${BASE}${path}`);
        const violations = (await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical');
        expect(violations, `${path} at ${viewport.width}: ${describeViolations(violations)}`).toEqual([]);
      }
    }
  });
});
