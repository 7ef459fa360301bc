// The load generator, client side, in its own process (forked by bench/load.ts): node:http over a
// keep-alive Agent, `connections` loops issuing requests back to back, to one URL or to several in
// turn (round-robin over the requests, so three nodes each get a third). Answers one request at a
// time over IPC. Any non-2xx answer or error stops the run and is reported with a sample. CPU use is
// read from /proc: the client's own, the server's processes', and a PostgreSQL cluster's.
import { Agent, request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import type { FillOptions, FillProgress, FillResult, LoadOptions, LoadResult, RequestSpec, WorkerReply, WorkerRequest } from './load.js';
import { MARK_EVERY } from './load.js';
import { clusterCpuSeconds, cpuSeconds } from './proc.js';

const TIMEOUT_MS = 30_000;

interface Target {
  hostname: string;
  port: string;
  path: string;
  method: string;
  headers: OutgoingHttpHeaders;
  body?: Buffer;
}

interface Answer {
  status: number;
  body?: Buffer;
}

function target(url: string, method: string, headers: Record<string, string> = {}, body?: string): Target {
  const parsed = new URL(url);
  const bytes = body === undefined ? undefined : Buffer.from(body);
  return {
    hostname: parsed.hostname, port: parsed.port, path: parsed.pathname + parsed.search, method,
    headers: bytes ? { ...headers, 'content-length': bytes.length } : headers, body: bytes,
  };
}

/** One request; the body is kept when asked for, or when the answer is not a 2xx (for the sample). */
function send(agent: Agent, to: Target, keepBody: boolean): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ ...to, agent, timeout: TIMEOUT_MS }, (res) => {
      const status = res.statusCode ?? 0;
      if (!keepBody && status >= 200 && status < 300) {
        res.resume();
        res.on('end', () => resolve({ status }));
      } else {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status, body: Buffer.concat(chunks) }));
      }
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
    req.on('error', reject);
    req.end(to.body);
  });
}

const ok = (status: number) => status >= 200 && status < 300;
const describeAnswer = (to: Target, answer: Answer) => `${to.method} ${to.path} → ${answer.status} ${answer.body?.toString('utf8', 0, 600) ?? ''}`;
const describeError = (to: Target, error: unknown) => `${to.method} ${to.path} → error: ${error instanceof Error ? error.message : String(error)}`;

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

async function load(spec: RequestSpec, options: LoadOptions): Promise<LoadResult> {
  const urls = Array.isArray(spec.url) ? spec.url : [spec.url];
  const targets = urls.map((url) => target(url, spec.method, spec.headers, spec.body));
  const agent = new Agent({ keepAlive: true, maxSockets: options.connections });
  const latencies: number[] = [];
  let next = 0;
  let issuedMeasured = 0;
  let non2xx = 0;
  let errors = 0;
  let sample: string | undefined;
  let stop = false;
  let lastDone = 0;

  const from = performance.now() + options.warmupMs;
  const to = options.durationMs === undefined ? Infinity : from + options.durationMs;
  // CPU use over the measured span: read when it starts, and when the last measured answer comes.
  let cpuAt: { client: NodeJS.CpuUsage; server?: number; postgres?: number } | undefined;
  const startTimer = setTimeout(
    () => (cpuAt = { client: process.cpuUsage(), server: cpuSeconds(options.watchPid), postgres: clusterCpuSeconds(options.watchPostgres) }),
    options.warmupMs,
  );

  const loop = async () => {
    while (!stop) {
      const started = performance.now();
      if (started >= to) break;
      const measured = started >= from;
      if (measured && options.requests !== undefined && issuedMeasured++ >= options.requests) break;
      const to_ = targets[next++ % targets.length] as Target;
      try {
        const answer = await send(agent, to_, false);
        const done = performance.now();
        if (!ok(answer.status)) {
          non2xx++;
          sample ??= describeAnswer(to_, answer);
          stop = true;
        } else if (done >= from && done <= to && (options.requests === undefined || measured)) {
          latencies.push(done - started);
          lastDone = done;
        }
      } catch (error) {
        errors++;
        sample ??= describeError(to_, error);
        stop = true;
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, loop));
  clearTimeout(startTimer);
  const client = cpuAt ? process.cpuUsage(cpuAt.client) : undefined;
  const serverNow = cpuSeconds(options.watchPid);
  const postgresNow = clusterCpuSeconds(options.watchPostgres);
  agent.destroy();

  const end = options.durationMs === undefined ? lastDone : to;
  const seconds = Math.max(end - from, 1e-9) / 1000;
  const sorted = Float64Array.from(latencies).sort();
  return {
    requests: latencies.length,
    seconds,
    rps: latencies.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    non2xx,
    errors,
    sample,
    clientCpu: client ? (client.user + client.system) / 1e6 / seconds : 0,
    serverCpu: cpuAt?.server !== undefined && serverNow !== undefined ? (serverNow - cpuAt.server) / seconds : undefined,
    postgresCpu: cpuAt?.postgres !== undefined && postgresNow !== undefined ? (postgresNow - cpuAt.postgres) / seconds : undefined,
  };
}

// The secureIds created so far: all of the first 1000, and a uniform sample (reservoir) of all.
const FIRST = 1000;
const RESERVOIR = 10_000;
const first: string[] = [];
const reservoir: string[] = [];
let createdInAll = 0;

function remember(secureId: string): void {
  createdInAll++;
  if (first.length < FIRST) first.push(secureId);
  if (reservoir.length < RESERVOIR) reservoir.push(secureId);
  else {
    const slot = Math.floor(Math.random() * createdInAll);
    if (slot < RESERVOIR) reservoir[slot] = secureId;
  }
}

function sample(from: 'first' | 'all', count: number): string[] {
  const pool = from === 'first' ? first : reservoir;
  if (pool.length === 0) throw new Error('no charge created yet');
  return Array.from({ length: count }, () => pool[Math.floor(Math.random() * pool.length)] as string);
}

/** Creates charges until `to` exist (counting those of earlier calls), paying every `payEvery`-th. */
async function fill(options: FillOptions, progress: (p: FillProgress) => void): Promise<FillResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: options.clients });
  const auth = { authorization: `Bearer ${options.token}` };
  const create = target(`${options.origin}/api/v2/invoices`, 'POST', { ...auth, 'content-type': 'application/json' }, options.body);
  const started = performance.now();
  const cpuAt = { client: process.cpuUsage(), server: cpuSeconds(options.watchPid), postgres: clusterCpuSeconds(options.watchPostgres) };
  const marks = [0];
  let ticket = createdInAll;
  let created = 0;
  let paid = 0;
  let failure: string | undefined;
  const report = setInterval(() => progress({ created: createdInAll, paid, ms: performance.now() - started }), options.progressMs);

  const loop = async () => {
    while (failure === undefined && ticket < options.to) {
      const mine = ++ticket;
      let answer: Answer;
      try {
        answer = await send(agent, create, true);
      } catch (error) {
        failure ??= describeError(create, error);
        break;
      }
      if (!ok(answer.status)) {
        failure ??= describeAnswer(create, answer);
        break;
      }
      const { data } = JSON.parse(answer.body?.toString() ?? '') as { data: { id: number; secureId: string } };
      remember(data.secureId);
      if (++created % MARK_EVERY === 0) marks[created / MARK_EVERY] = performance.now() - started;
      if (mine % options.payEvery !== 0) continue;
      const pay = target(`${options.origin}/api/v2/sandbox/invoices/${data.id}/pay`, 'POST', auth);
      try {
        const payAnswer = await send(agent, pay, false);
        if (!ok(payAnswer.status)) failure ??= describeAnswer(pay, payAnswer);
        else paid++;
      } catch (error) {
        failure ??= describeError(pay, error);
      }
    }
  };
  await Promise.all(Array.from({ length: options.clients }, loop));
  clearInterval(report);
  agent.destroy();
  if (failure !== undefined) throw new Error(`fill stopped at ${createdInAll} charges: ${failure}`);
  const ms = performance.now() - started;
  const client = process.cpuUsage(cpuAt.client);
  const serverNow = cpuSeconds(options.watchPid);
  const postgresNow = clusterCpuSeconds(options.watchPostgres);
  return {
    created, paid, ms, marks,
    clientCpu: (client.user + client.system) / 1000 / ms,
    serverCpu: cpuAt.server !== undefined && serverNow !== undefined ? ((serverNow - cpuAt.server) * 1000) / ms : undefined,
    postgresCpu: cpuAt.postgres !== undefined && postgresNow !== undefined ? ((postgresNow - cpuAt.postgres) * 1000) / ms : undefined,
  };
}

const reply = (message: WorkerReply) => process.send?.(message);

process.on('message', (message: WorkerRequest) => {
  const run = async (): Promise<unknown> => {
    if (message.kind === 'load') return load(message.spec, message.options);
    if (message.kind === 'fill') return fill(message.options, (progress) => reply({ id: message.id, kind: 'progress', progress }));
    return sample(message.from, message.count);
  };
  run().then(
    (result) => reply({ id: message.id, kind: 'result', result }),
    (error: unknown) => reply({ id: message.id, kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
// The parent went away (finished, or killed): so does the client.
process.on('disconnect', () => process.exit(0));
