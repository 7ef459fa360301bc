// A real browser for the checkout page's end-to-end suite: Debian's Chromium (Playwright's own download
// is not used), driven by playwright-core; and what the suite reads back from it: a QR code from a
// screenshot (jsQR), axe-core's findings, a PDF's metadata.
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import jsqr from 'jsqr';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import pngjs from 'pngjs';
import { recordOf } from './charges.js';

/** Debian's Chromium (apt-get install chromium), or the one $CHROMIUM_PATH names. */
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);

/**
 * Why the browser suite is skipped, or undefined when it runs. As for PHP and PostgreSQL: outside CI a
 * machine without Chromium skips it, saying so; with CI=true it never skips (.ci/run installs chromium).
 */
export const browserSkipReason: string | undefined =
  hasChromium || process.env.CI === 'true' ? undefined : `no Chromium at ${CHROMIUM} (Debian: apt-get install chromium; or set CHROMIUM_PATH); .ci/run installs it`;

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  });
}

/** A page in a context of its own, and what went wrong in it: uncaught errors, dialogs, what its CSP refused. */
export interface WatchedPage {
  context: BrowserContext;
  page: Page;
  pageErrors: string[];
  refused: string[];
}

/**
 * A page in a context of its own, under the page's own CSP: whatever the policy refuses (a
 * securitypolicyviolation event, Chromium's "Refused to …" message) is in `refused`, for the test to
 * fail on. Only axe-core's contexts bypass it (axe is injected as a script the policy forbids).
 */
export async function watchedPage(browser: Browser, viewport: { width: number; height: number }, { bypassCSP = false } = {}): Promise<WatchedPage> {
  const made = await browser.newContext({ viewport, bypassCSP });
  const pageErrors: string[] = [];
  const refused: string[] = [];
  // (a binding and an init script are the browser's own, outside the page's policy)
  await made.exposeBinding('__refusedByCsp', (_source, text: string) => refused.push(`securitypolicyviolation: ${text}`));
  await made.addInitScript(`document.addEventListener('securitypolicyviolation', (e) => window.__refusedByCsp([e.violatedDirective, e.blockedURI, e.sourceFile, e.lineNumber].join(' ')))`);
  const page = await made.newPage();
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) refused.push(`console: ${message.text()}`);
  });
  page.on('dialog', (dialog) => {
    pageErrors.push(`a dialog opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { context: made, page, pageErrors, refused };
}

/** Closes the pages opened (afterEach) and answers what went wrong in them, for the test to expect none of. */
export async function closeWatched(opened: WatchedPage[]): Promise<{ errors: string[]; refused: string[] }> {
  const errors = opened.flatMap((o) => o.pageErrors);
  const refused = opened.flatMap((o) => o.refused);
  await Promise.all(opened.splice(0).map((o) => o.context.close()));
  return { errors, refused };
}

/** A company of a running `pinvoice serve`, reached over its API. */
export interface Gateway {
  url: string;
  token: string;
}

export async function api(gateway: Gateway, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { authorization: `Bearer ${gateway.token}` };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const response = await fetch(`${gateway.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text === '' ? undefined : JSON.parse(text) };
}

/** Creates a charge and answers its record. */
export async function createCharge(gateway: Gateway, body: unknown): Promise<any> {
  const reply = await api(gateway, 'POST', '/api/v2/invoices', body);
  if (reply.status !== 200) throw new Error(`create answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return recordOf(reply.body);
}

/** The charge's record as Search answers it now. */
export async function getCharge(gateway: Gateway, id: number | string): Promise<any> {
  const reply = await api(gateway, 'GET', `/api/v2/invoices/${id}`);
  if (reply.status !== 200) throw new Error(`get answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

/** The payer's page of a charge record. */
export const checkoutUrl = (gateway: Gateway, record: { invoice: { token_checkout: string } }) => `${gateway.url}/checkout/${record.invoice.token_checkout}`;

// jsqr is webpack-built CommonJS that sets exports.default (see qr-decode.ts): take whichever is callable.
type Decode = typeof jsqr.default;
const jsQR: Decode = typeof jsqr === 'function' ? (jsqr as Decode) : jsqr.default;

/** The text of the QR code in a PNG (a screenshot), or null when none can be read. */
export function decodeQrPng(png: Buffer): string | null {
  const image = pngjs.PNG.sync.read(png);
  const pixels = new Uint8ClampedArray(image.data.buffer, image.data.byteOffset, image.data.byteLength);
  return jsQR(pixels, image.width, image.height)?.data ?? null;
}

const require = createRequire(import.meta.url);
export const AXE_PATH = require.resolve('axe-core/axe.min.js');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[]; failureSummary?: string }[];
}

/** Runs axe-core on the page (its context needs bypassCSP: the page's CSP forbids scripts not its own). */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.addScriptTag({ path: AXE_PATH });
  return page.evaluate(async () => {
    const g = globalThis as any;
    const result = await g.axe.run(g.document);
    return result.violations.map((v: any) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n: any) => ({ target: n.target.map(String), failureSummary: n.failureSummary })),
    }));
  });
}

export const describeViolations = (violations: AxeViolation[]) =>
  violations.map((v) => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map((n) => `  ${n.target.join(' ')}: ${n.failureSummary ?? ''}`).join('\n')}`).join('\n');

/**
 * A string of a PDF's Info dictionary as pdfkit writes it: a literal `(…)` or UTF-16 hex `<FEFF…>`,
 * there or in the object it refers to (`/Subject 12 0 R`).
 */
export function pdfInfoString(pdf: Buffer, key: string): string | undefined {
  const text = pdf.toString('latin1');
  const STRING = String.raw`(\((?:\\.|[^\\)])*\)|<[0-9A-Fa-f\s]*>)`;
  const ref = new RegExp(String.raw`/${key}\s+(\d+)\s+(\d+)\s+R`).exec(text);
  const found = ref
    ? new RegExp(String.raw`(?:^|\s)${ref[1]}\s+${ref[2]}\s+obj\s*${STRING}\s*endobj`).exec(text)
    : new RegExp(String.raw`/${key}\s*${STRING}`).exec(text);
  const value = found?.[1];
  if (value === undefined) return undefined;
  if (value.startsWith('(')) return value.slice(1, -1).replace(/\\(.)/g, '$1');
  const bytes = Buffer.from(value.slice(1, -1).replace(/\s/g, ''), 'hex');
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return Buffer.from(bytes.subarray(2)).swap16().toString('utf16le');
  return bytes.toString('latin1');
}

/** The dictionaries of a PDF's stream objects (their text before `stream`). */
export function pdfStreamDictionaries(pdf: Buffer): string[] {
  const text = pdf.toString('latin1');
  return [...text.matchAll(/\d+ \d+ obj\s*(<<[\s\S]*?>>)\s*stream/g)].map((match) => match[1] ?? '');
}

/** Interleaved 2 of 5: each digit as five elements, true = wide. */
const ITF_DIGITS = ['NNWWN', 'WNNNW', 'NWNNW', 'WWNNN', 'NNWNW', 'WNWNN', 'NWWNN', 'NNNWW', 'WNNWN', 'NWNWN'];

/**
 * The digits of an ITF (interleaved 2 of 5) barcode in a PNG (a screenshot), read along its middle row,
 * or null when that row is not one: a start (four narrow), pairs of digits (five bars for the first,
 * the five spaces between them for the second), a stop (wide bar, narrow space, narrow bar).
 */
export function decodeItfPng(png: Buffer): string | null {
  const image = pngjs.PNG.sync.read(png);
  const y = Math.floor(image.height / 2);
  const dark: boolean[] = [];
  for (let x = 0; x < image.width; x++) {
    const i = (y * image.width + x) * 4;
    dark.push((image.data[i] ?? 255) + (image.data[i + 1] ?? 255) + (image.data[i + 2] ?? 255) < 3 * 128);
  }
  const first = dark.indexOf(true);
  const last = dark.lastIndexOf(true);
  if (first < 0) return null;
  const runs: number[] = [];
  for (let x = first, start = first; x <= last + 1; x++) {
    if (x === last + 1 || dark[x] !== dark[start]) {
      runs.push(x - start);
      start = x;
    }
  }
  const threshold = (Math.min(...runs) + Math.max(...runs)) / 2;
  const wide = runs.map((run) => run > threshold);
  const start = wide.slice(0, 4).join();
  const stop = wide.slice(-3).join();
  if (start !== 'false,false,false,false' || stop !== 'true,false,false' || (wide.length - 7) % 10 !== 0) return null;
  const pattern = (flags: boolean[]) => ITF_DIGITS.indexOf(flags.map((flag) => (flag ? 'W' : 'N')).join(''));
  let digits = '';
  for (let i = 4; i < wide.length - 3; i += 10) {
    const pair = wide.slice(i, i + 10);
    const a = pattern(pair.filter((_, k) => k % 2 === 0));
    const b = pattern(pair.filter((_, k) => k % 2 === 1));
    if (a < 0 || b < 0) return null;
    digits += `${a}${b}`;
  }
  return digits;
}
