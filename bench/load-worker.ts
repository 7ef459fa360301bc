// The load generator, client side, in its own process (forked by bench/load.ts): the raw HTTP/1.1
// client of tools/raw-client.ts (one keep-alive socket per connection), `connections` loops issuing
// requests back to back (or, given a rate, each at its due time), to one URL or to several in turn (connections spread over the origins, so
// three nodes each get a third, and each connection takes its origin's URLs in turn), of one kind of
// request or of a mix of kinds in a fixed turn of slots. Answers one request at a
// time over IPC. Any non-2xx answer or error stops the run and is reported with a sample. CPU use is
// read from /proc: the client's own, the server's processes', and a PostgreSQL cluster's.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FillOptions, FillProgress, FillResult, LoadOptions, LoadResult, LoadSpec, WorkerReply, WorkerRequest } from './load.js';
import { MARK_EVERY } from './load.js';
import { clusterCpuSeconds, cpuSeconds, mainThreadSeconds } from './proc.js';
import { RawConnection, rawTarget, type RawAnswer, type RawTarget } from '../tools/raw-client.js';

const TIMEOUT_MS = 30_000;

const ok = (status: number) => status >= 200 && status < 300;

function percentile(sorted: Float64Array, q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? 0;
}

/** The targets grouped by origin: connection c speaks to group c mod n, taking its URLs in turn. */
function byOrigin(targets: RawTarget[]): RawTarget[][] {
  const groups = new Map<string, RawTarget[]>();
  for (const to of targets) {
    const key = `${to.host}:${to.port}`;
    const group = groups.get(key);
    if (group) group.push(to);
    else groups.set(key, [to]);
  }
  return [...groups.values()];
}

const describeRaw = (to: RawTarget, answer: RawAnswer) => `${to.method} ${to.path} → ${answer.status} ${answer.body?.toString('utf8', 0, 600) ?? ''}`;
const describeRawError = (to: RawTarget, error: unknown) => `${to.method} ${to.path} → error: ${error instanceof Error ? error.message : String(error)}`;

/**
 * A load's kinds of request, each as its targets grouped by origin (in the first kind's order of
 * origins, so that connection c speaks to the same origin whichever kind it sends), and the slots of
 * the turn: slots[s] the kind the s-th request of a turn is (one kind alone: one slot).
 */
function plan(spec: LoadSpec): { groups: RawTarget[][][]; slots: number[] } {
  const kinds = 'mix' in spec ? spec.mix : [{ spec, weight: 1 }];
  if (kinds.length === 0 || kinds.some(({ weight }) => !(Number.isInteger(weight) && weight >= 1))) throw new Error('a mix needs kinds of whole weights ≥ 1');
  const origin = (group: RawTarget[]) => `${group[0]?.host}:${group[0]?.port}`;
  const byKind = kinds.map(({ spec: one }) => byOrigin((Array.isArray(one.url) ? one.url : [one.url]).map((url) => rawTarget(url, one.method, one.headers, one.body))));
  const origins = (byKind[0] as RawTarget[][]).map(origin);
  const groups = byKind.map((kind) => origins.map((wanted) => {
    const group = kind.length === origins.length ? kind.find((g) => origin(g) === wanted) : undefined;
    if (!group) throw new Error(`every kind of a mix must name the same origins (${origins.join(', ')})`);
    return group;
  }));
  return { groups, slots: kinds.flatMap(({ weight }, k) => Array.from({ length: weight }, () => k)) };
}

async function load(spec: LoadSpec, options: LoadOptions): Promise<LoadResult> {
  const { groups, slots } = plan(spec);
  const origins = (groups[0] as RawTarget[][]).length;
  if (options.connections < origins) throw new Error(`${origins} origins need at least as many connections, not ${options.connections}`);
  const connections = Array.from({ length: options.connections }, (_, c) => {
    const first = (groups[0] as RawTarget[][])[c % origins]?.[0] as RawTarget;
    return { origin: c % origins, socket: new RawConnection(first.host, first.port, TIMEOUT_MS) };
  });
  // turns[k][o]: how many requests of kind k origin o has been sent (each takes the next of its URLs)
  const turns = groups.map(() => Array.from({ length: origins }, () => 0));
  const latencies: number[][] = groups.map(() => []);
  let issuedMeasured = 0;
  let non2xx = 0;
  let errors = 0;
  let sample: string | undefined;
  let stop = false;
  let lastDone = 0;

  const from = performance.now() + options.warmupMs;
  const to = options.durationMs === undefined ? Infinity : from + options.durationMs;
  // CPU use over the measured span: read when it starts, and when the last measured answer comes.
  let cpuAt: { client: NodeJS.CpuUsage; server?: number; main?: { onCore: number; waiting: number }; postgres?: number } | undefined;
  const startTimer = setTimeout(
    () => (cpuAt = { client: process.cpuUsage(), server: cpuSeconds(options.watchPid), main: mainThreadSeconds(options.watchPid), postgres: clusterCpuSeconds(options.watchPostgres) }),
    options.warmupMs,
  );

  // At a fixed rate: the n-th request is due at n ÷ rate after the start, taken by the first free connection.
  const paced = options.rate === undefined ? undefined : { at: performance.now(), every: 1000 / options.rate, tickets: 0 };
  const loop = async (c: number) => {
    const { origin: o, socket } = connections[c] as (typeof connections)[number];
    let n = c;
    while (!stop) {
      if (paced) {
        const wait = paced.at + paced.tickets++ * paced.every - performance.now();
        if (wait > 0) await sleep(wait);
      }
      const started = performance.now();
      if (started >= to) break;
      const measured = started >= from;
      if (measured && options.requests !== undefined && issuedMeasured++ >= options.requests) break;
      const k = slots[n++ % slots.length] as number;
      const group = (groups[k] as RawTarget[][])[o] as RawTarget[];
      const kindTurns = turns[k] as number[];
      const to_ = group[(kindTurns[o] as number)++ % group.length] as RawTarget;
      try {
        const answer = await socket.request(to_, false);
        const done = performance.now();
        if (!ok(answer.status)) {
          non2xx++;
          sample ??= describeRaw(to_, answer);
          stop = true;
        } else if (done >= from && done <= to && (options.requests === undefined || measured)) {
          (latencies[k] as number[]).push(done - started);
          lastDone = done;
        }
      } catch (error) {
        errors++;
        sample ??= describeRawError(to_, error);
        stop = true;
      }
    }
  };
  await Promise.all(connections.map((_, c) => loop(c)));
  clearTimeout(startTimer);
  const client = cpuAt ? process.cpuUsage(cpuAt.client) : undefined;
  const serverNow = cpuSeconds(options.watchPid);
  const mainNow = mainThreadSeconds(options.watchPid);
  const postgresNow = clusterCpuSeconds(options.watchPostgres);
  for (const { socket } of connections) socket.close();

  const end = options.durationMs === undefined ? lastDone : to;
  const seconds = Math.max(end - from, 1e-9) / 1000;
  const sorted = Float64Array.from(latencies.flat()).sort();
  const kinds = latencies.length > 1 ? latencies.map((some) => {
    const own = Float64Array.from(some).sort();
    return { requests: own.length, p50: percentile(own, 0.5), p99: percentile(own, 0.99) };
  }) : undefined;
  return {
    requests: sorted.length,
    seconds,
    rps: sorted.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
    kinds,
    non2xx,
    errors,
    sample,
    clientCpu: client ? (client.user + client.system) / 1e6 / seconds : 0,
    serverCpu: cpuAt?.server !== undefined && serverNow !== undefined ? (serverNow - cpuAt.server) / seconds : undefined,
    serverMain: cpuAt?.main && mainNow ? { onCore: (mainNow.onCore - cpuAt.main.onCore) / seconds, waiting: (mainNow.waiting - cpuAt.main.waiting) / seconds } : undefined,
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

function sample(from: 'first' | 'all', count: number, distinct = false): string[] {
  const pool = from === 'first' ? first : reservoir;
  if (pool.length === 0) throw new Error('no charge created yet');
  if (!distinct) return Array.from({ length: count }, () => pool[Math.floor(Math.random() * pool.length)] as string);
  // a partial Fisher-Yates shuffle of a copy: the first `count` are a uniform sample without repeats
  const copy = pool.slice();
  const n = Math.min(count, copy.length);
  for (let i = 0; i < n; i++) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j] as string, copy[i] as string];
  }
  return copy.slice(0, n);
}

/** Creates charges until `to` exist (counting those of earlier calls), paying every `payEvery`-th. */
async function fill(options: FillOptions, progress: (p: FillProgress) => void): Promise<FillResult> {
  const auth = { authorization: `Bearer ${options.token}` };
  const create = rawTarget(`${options.origin}/api/v2/invoices`, 'POST', { ...auth, 'content-type': 'application/json' }, options.body);
  const started = performance.now();
  const cpuAt = { client: process.cpuUsage(), server: cpuSeconds(options.watchPid), postgres: clusterCpuSeconds(options.watchPostgres) };
  const marks = [0];
  let ticket = createdInAll;
  let created = 0;
  let paid = 0;
  let failure: string | undefined;
  const report = setInterval(() => progress({ created: createdInAll, paid, ms: performance.now() - started }), options.progressMs);

  const sockets = Array.from({ length: options.clients }, () => new RawConnection(create.host, create.port, TIMEOUT_MS));
  const loop = async (socket: RawConnection) => {
    while (failure === undefined && ticket < options.to) {
      const mine = ++ticket;
      let answer: RawAnswer;
      try {
        answer = await socket.request(create, true);
      } catch (error) {
        failure ??= describeRawError(create, error);
        break;
      }
      if (!ok(answer.status)) {
        failure ??= describeRaw(create, answer);
        break;
      }
      const { data } = JSON.parse(answer.body?.toString() ?? '') as { data: { id: number; secureId: string } };
      remember(data.secureId);
      if (++created % MARK_EVERY === 0) marks[created / MARK_EVERY] = performance.now() - started;
      if (mine % options.payEvery !== 0) continue;
      const pay = rawTarget(`${options.origin}/api/v2/sandbox/invoices/${data.id}/pay`, 'POST', auth);
      try {
        const payAnswer = await socket.request(pay, false);
        if (!ok(payAnswer.status)) failure ??= describeRaw(pay, payAnswer);
        else paid++;
      } catch (error) {
        failure ??= describeRawError(pay, error);
      }
    }
  };
  await Promise.all(sockets.map(loop));
  clearInterval(report);
  for (const socket of sockets) socket.close();
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
    return sample(message.from, message.count, message.distinct);
  };
  run().then(
    (result) => reply({ id: message.id, kind: 'result', result }),
    (error: unknown) => reply({ id: message.id, kind: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
});
// The parent went away (finished, or killed): so does the client.
process.on('disconnect', () => process.exit(0));
