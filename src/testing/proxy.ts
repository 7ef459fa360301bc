// `connectProxy({ url, token })`: a running `pinvoice proxy`'s journal, asked from a merchant's test
// suite as a sandbox's is (`.requests.find|count|wait|all|clear`), over the proxy's own API
// (/_pinvoice/, its inspector token), plus its drift report. The proxy itself runs outside the suite
// (it is in front of production: the suite does not start it).
import type { Finding } from '../api/findings.js';
import type { JournalEntry } from '../api/journal.js';
import { createClient } from '../client/index.js';
import { packageVersion } from '../version.js';
import { requestsControl } from './requests.js';
import type { SandboxRequests } from './types.js';

/** An entry of a proxy's journal: serve's, plus the gateway's answer and the findings. */
export interface ProxyEntry extends JournalEntry {
  upstream: { status: number | null; duration_ms: number } | null;
  findings: Finding[];
}

export interface ProxyConnection {
  url: string;
  /** what the proxy's journal holds: find, count, wait for exchanges, as your code made them */
  requests: SandboxRequests<ProxyEntry>;
  /** the drift report of the journal's window (pinvoice drift's JSON) */
  drift(): Promise<unknown>;
  /** the proxy's health: its origin, whether writes pass, its journal */
  health(): Promise<{ status: string; origin: string | null; replay?: string; writes: 'allowed' | 'refused'; journal: string; journal_max: number }>;
}

export interface ConnectProxyOptions {
  /** the proxy's URL, as it printed it (`listening on …`) */
  url: string;
  /** its inspector token (printed at its start, or PINVOICE_PROXY_TOKEN from --write-env) */
  token: string;
}

/** Connects to a running proxy; rejects when it does not answer or refuses the token. */
export async function connectProxy(options: ConnectProxyOptions): Promise<ProxyConnection> {
  if (typeof options?.url !== 'string' || !URL.canParse(options.url)) throw new TypeError(`connectProxy: url must be the proxy's URL (http://127.0.0.1:4020), not ${JSON.stringify(options?.url)}`);
  if (typeof options.token !== 'string' || options.token === '') throw new TypeError('connectProxy: token must be the proxy\'s inspector token (printed at its start; PINVOICE_PROXY_TOKEN with --write-env)');
  const base = new URL(options.url).origin;
  const client = createClient({ baseUrl: base, token: options.token, version: `${packageVersion()} (pinvoice/testing)`, journalPath: '/_pinvoice/requests' });
  const get = async <T>(path: string): Promise<T> => {
    const answer = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${options.token}` } });
    const body = (await answer.json().catch(() => undefined)) as { message?: string } | undefined;
    if (!answer.ok) throw new Error(`connectProxy: ${base}${path} answered HTTP ${answer.status}${body?.message ? `: ${body.message}` : ''}`);
    return body as T;
  };
  const health = () => get<Awaited<ReturnType<ProxyConnection['health']>>>('/_pinvoice/health');
  const { journal_max: keep } = await health();
  return {
    url: base,
    requests: requestsControl(client, keep, 'proxy.requests', 'pinvoice proxy --journal-max N') as unknown as SandboxRequests<ProxyEntry>,
    drift: () => get('/_pinvoice/drift'),
    health,
  };
}
