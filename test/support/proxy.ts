// `pinvoice proxy` of the built binary in front of the production stand-in, for the proxy's e2e tests:
// starting it (its start-up lines on stderr name the address and the inspector token), raw HTTP(S)
// requests that keep every byte and header of the answer (no decompression, no redirect followed),
// and the proxy's own API (`/_pinvoice/`), where an exchange's journal entry is read by the id of its
// Pinvoice-Proxy-Entry header.
import { spawn, type ChildProcess } from 'node:child_process';
import { request as httpRequest, type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { BIN, cleanEnv } from './cli.js';
import { workDir } from './processes.js';
import { startProductionGateway, type ProductionGateway } from './production-gateway.js';
import { eventually } from './receiver.js';
import { makeTestCa, type TestCa } from './test-ca.js';

/** Hop-by-hop headers (RFC 9110 7.6.1), which a proxy drops; Node adds its own connection and keep-alive. */
export const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade'];
export const ENTRY = 'pinvoice-proxy-entry';

/** The headers, lower case, without hop-by-hop ones and without those named. */
export function endToEnd(headers: IncomingHttpHeaders | Record<string, string>, without: string[] = []): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    if (value !== undefined && !HOP_BY_HOP.includes(lower) && !without.includes(lower)) out[lower] = value;
  }
  return out;
}

export interface ProxyProcess {
  url: string;
  /** the inspector token of its own API */
  token: string;
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const live = new Set<ProxyProcess>();

/** Starts `pinvoice proxy ...args` and resolves once its start-up lines named the address and the token. */
export function startProxy(args: string[], env: Record<string, string | undefined> = {}): Promise<ProxyProcess> {
  const child = spawn(process.execPath, [BIN, 'proxy', ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the proxy did not start within 15 s; stderr: ${stderr}`)), 15_000);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      const url = /pinvoice proxy listening on (http:\/\/\S+?),? (?:forwarding to|replaying)/.exec(stderr)?.[1];
      const token = /inspector token: (\S+)/.exec(stderr)?.[1];
      if (!url || !token) return;
      clearTimeout(timer);
      const proxy: ProxyProcess = {
        url, token, child, exited, stdout: () => stdout, stderr: () => stderr,
        stop: (signal = 'SIGTERM') => {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      };
      live.add(proxy);
      void exited.then(() => live.delete(proxy));
      resolve(proxy);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the proxy exited with ${code} before it listened; stderr: ${stderr}`));
    });
  });
}

/** Stops every proxy started here that still runs (afterAll). */
export async function stopProxies(): Promise<void> {
  await Promise.all([...live].map((proxy) => proxy.stop('SIGKILL')));
}

export interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
  /** the body's JSON, or undefined */
  json: any;
  /** the journal entry's id the proxy named */
  entry: number;
}

export interface RawOptions {
  method?: string;
  headers?: OutgoingHttpHeaders;
  body?: string | Buffer;
  /** a CA to trust, for an https URL */
  ca?: string;
  timeoutMs?: number;
}

/** One request, the answer's bytes as they came; rejects when the answer was not complete (a cut, a reset). */
export function raw(url: string, options: RawOptions = {}): Promise<RawAnswer> {
  const target = new URL(url);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(target, { method: options.method ?? 'GET', headers: options.headers ?? {}, agent: false, ...(options.ca ? { ca: options.ca } : {}) }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('aborted', () => reject(new Error('the answer was cut (aborted)')));
      res.on('end', () => {
        if (!res.complete) return reject(new Error('the answer was cut (incomplete)'));
        const body = Buffer.concat(chunks);
        let json: unknown;
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body, json, entry: Number(res.headers[ENTRY]) });
      });
    });
    req.setTimeout(options.timeoutMs ?? 15_000, () => req.destroy(new Error('no answer in time')));
    req.on('error', reject);
    req.end(options.body);
  });
}

/** A GET (or other) of the proxy's own API with its inspector token; the JSON answer. */
export async function own(proxy: ProxyProcess, path: string, init: { method?: string; body?: unknown } = {}): Promise<{ status: number; body: any; text: string }> {
  const response = await fetch(`${proxy.url}/_pinvoice${path}`, {
    method: init.method ?? 'GET',
    headers: { authorization: `Bearer ${proxy.token}`, ...(init.body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
    signal: AbortSignal.timeout(15_000),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, body, text };
}

/** The journal entry `id`, once it is written (entries are written after the answer, out of band). */
export async function entryOf(proxy: ProxyProcess, id: number): Promise<any> {
  if (!Number.isInteger(id) || id < 1) throw new Error(`no ${ENTRY} header to look the entry up by (got ${id})`);
  return eventually(async () => {
    const answer = await own(proxy, `/requests/${id}`);
    return answer.status === 200 ? answer.body : undefined;
  }, 10_000, `journal entry ${id}`);
}

export interface Rig {
  gateway: ProductionGateway;
  proxy: ProxyProcess;
  /** the journal file */
  journal: string;
  dir: string;
  /** HOME and the data folders of the proxy's run, for a CLI run beside it */
  env: Record<string, string>;
  ca: TestCa | undefined;
  /** the merchant's request headers: its production token */
  auth: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A production stand-in (over https with a local CA's leaf when `tls`, the proxy trusting the CA by
 * NODE_EXTRA_CA_CERTS) and a proxy in front of it with its journal in a folder of its own.
 */
export async function rig(tls: boolean, args: string[] = []): Promise<Rig> {
  const ca = tls ? makeTestCa() : undefined;
  const gateway = await startProductionGateway(ca ? { tls: ca.leaf('valid') } : {});
  const { dir, env } = workDir('pinvoice-proxy-');
  const journal = join(dir, 'journals', 'production.db');
  try {
    const proxy = await startProxy(['--to', gateway.url, '--port', '0', '--journal', journal, ...args], { ...env, ...(ca ? { NODE_EXTRA_CA_CERTS: ca.caCertPath } : {}) });
    return {
      gateway, proxy, journal, dir, env, ca,
      auth: { authorization: `Bearer ${gateway.token}` },
      async close() {
        await proxy.stop();
        await gateway.close();
        ca?.remove();
      },
    };
  } catch (error) {
    await gateway.close();
    throw error;
  }
}
