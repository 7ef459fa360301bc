// `pinvoice proxy`: checks its flags, opens the journal, listens, prints where it listens, what it
// forwards to, whether writes pass, the journal's file and the inspector token (once), then runs until
// SIGINT or SIGTERM. stdout carries the `listening on <url>` line only; the rest goes to stderr.
import { isIP } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { envText, writeOwnerOnly, checkWritablePath } from '../../base/env-file.js';
import { PrivateFileError } from '../../base/private-file.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { AmountError, formatBRL, parseAmount } from '../../domain/money.js';
import { checkExchange } from '../../proxy/check.js';
import { buildReport } from '../../proxy/drift/report.js';
import { createReplay, ignored, loadRecording, RecordingError, type Replay } from '../../proxy/replay.js';
import { ProxyListenError, startProxy } from '../../proxy/server.js';
import type { ProxyFlags } from './index.js';
import { defaultJournal, defaultReplayJournal } from './journal-path.js';

const WRITE_ENV = '--write-env';
const loopback = (host: string) => host === 'localhost' || host === '::1' || (isIP(host) === 4 && host.startsWith('127.'));


function maxAmount(flags: ProxyFlags): number | undefined {
  if (flags.maxAmount === undefined) return undefined;
  if (!flags.allowWrites) throw usageError('--max-amount caps the writes --allow-writes lets through: give --allow-writes too (without it no write is sent at all)');
  try {
    const cents = parseAmount(flags.maxAmount);
    if (cents < 1) throw new AmountError('must be at least R$ 0,01');
    return cents;
  } catch (error) {
    if (error instanceof AmountError) throw usageError(`--max-amount ${JSON.stringify(flags.maxAmount)}: ${error.message}`);
    throw error;
  }
}

/**
 * The process is the proxy's alone: V8's allocation-site pretenuring is turned off. Under a burst, the
 * entries waiting for their batch (up to 100 ms) outlive a scavenge or two, V8 then allocates such
 * objects in the old generation from the start, and after the burst every exchange's entry is garbage
 * there: a full collection every second or two, each pausing the proxy 3 to 7 ms. bench/proxy.ts at a
 * steady 500 req/s after bursts of 10,000 req/s, three runs each: p99 added 1.1–7.3 ms with it, 0.5–1.7
 * ms without; the throughput is the same.
 */
function tuneCollector(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}

/** `--replay FILE`: the recording loaded whole (a line that is not one: exit 2, nothing served), or undefined for a proxy `--to` a gateway. */
function replayOf(flags: ProxyFlags, warn: (line: string) => void): Replay | undefined {
  if (flags.replay === undefined) {
    if (flags.to === undefined) throw usageError('--to is required (--to <origin>: the gateway to pass requests to), unless --replay FILE answers from a recording');
    if (flags.ignore !== undefined || flags.strict) throw usageError(`${flags.ignore === undefined ? '--strict' : '--ignore'} goes with --replay FILE (it is about matching requests to a recording)`);
    return undefined;
  }
  let replay: Replay;
  try {
    replay = createReplay(flags.replay, loadRecording(flags.replay), ignored(flags.ignore ?? []));
  } catch (error) {
    if (error instanceof RecordingError) throw usageError(error.message);
    throw error;
  }
  if (replay.recorded.length === 0) warn(`pinvoice proxy: warning: ${flags.replay} records no exchange: every request will be answered 404 not_recorded`);
  return replay;
}

/** At stop: how many recorded exchanges were never asked for; with --strict each is named, and one is exit 16. */
function sayUnused(replay: Replay, strict: boolean, say: (line: string) => void): void {
  const unused = replay.unused();
  if (strict) for (const exchange of unused) say(`unused: ${exchange.request.method} ${exchange.request.path} (${replay.file}:${exchange.line}${exchange.entry === undefined ? '' : `, entry ${exchange.entry}`})`);
  const of = replay.recorded.length === 1 ? 'the 1 recorded exchange' : `the ${replay.recorded.length} recorded exchanges`;
  const counted = `${unused.length} of ${of} ${unused.length === 1 ? 'was' : 'were'} never asked for`;
  if (strict && unused.length > 0) throw new CliError(`--strict: ${counted}`, EXIT.replayUnused);
  say(counted);
}

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

export async function proxy(flags: ProxyFlags): Promise<void> {
  const out = createOutput({});
  const replay = replayOf(flags, (line) => out.message(line));
  const to = flags.to as URL;
  const cap = maxAmount(flags);
  tuneCollector();
  const journalFile = flags.journal ?? (replay ? defaultReplayJournal(replay.file) : defaultJournal(to));
  if (flags.writeEnv !== undefined) checkWritablePath(flags.writeEnv, WRITE_ENV);
  if (!loopback(flags.host) && !replay) out.message(`pinvoice proxy: warning: listening on ${flags.host}, not loopback: whoever reaches it can send requests to ${to.origin} with their own token${flags.allowWrites ? ', writes included' : ''}${flags.forward ? ', and (--forward) open tunnels to any host from this machine' : ''}`);
  const stopped = untilSignal();
  let running;
  try {
    running = await startProxy({
      origin: replay ? undefined : to, replay, record: flags.record, host: flags.host, port: flags.port, journalFile, ownJournalFolder: flags.journal === undefined, keep: flags.journalMax, maxBytes: flags.journalMaxBytes, allowWrites: flags.allowWrites === true,
      maxAmountCents: cap, check: checkExchange, drift: (journal) => buildReport(journal.entries(), { now: new Date() }), timeoutMs: flags.timeout * 1000, log: (line) => out.message(`pinvoice proxy: ${line}`),
      forward: flags.forward === true,
    });
  } catch (error) {
    if (error instanceof ProxyListenError) throw new CliError(error.message, EXIT.network);
    if (error instanceof PrivateFileError) throw new CliError(error.message, EXIT.unexpected);
    throw error;
  }
  if (running.notice) out.message(`pinvoice proxy: ${running.notice}`);
  if (flags.writeEnv !== undefined) {
    try {
      writeOwnerOnly(flags.writeEnv, envText({ PINVOICE_BASE_URL: running.url, PINVOICE_PROXY_TOKEN: running.token }, WRITE_ENV), WRITE_ENV, (line) => out.message(line));
    } catch (error) {
      await running.close();
      throw error;
    }
  }
  out.data(`listening on ${running.url}`);
  if (replay) {
    out.message(`pinvoice proxy listening on ${running.url}, replaying ${replay.file} (${replay.recorded.length} recorded exchange${replay.recorded.length === 1 ? '' : 's'}; nothing is sent to any gateway)`);
  } else {
    out.message(`pinvoice proxy listening on ${running.url}, forwarding to ${to.origin}`);
    if (flags.record !== undefined) out.message(`recording: every exchange appended to ${flags.record}, redacted, owner-only (pinvoice proxy --replay ${flags.record} answers from it)`);
  }
  if (!replay) out.message(flags.allowWrites ? `writes: allowed${cap === undefined ? '' : `, each charge or refund at most ${formatBRL(cap)}`}` : 'writes: refused (403 proxy_write_refused; --allow-writes lets them through)');
  out.message(`journal: ${journalFile} (the newest ${flags.journalMax.toLocaleString('en')} exchanges; pinvoice logs tail --journal FILE, pinvoice drift --journal FILE)`);
  if (running.caPath !== undefined) {
    const ca = flags.journal === undefined ? `--to ${to.origin}` : `--journal ${flags.journal}`;
    out.message(`forward proxy: HTTPS_PROXY=${running.url}; trust the CA at ${running.caPath} (pinvoice proxy ca ${ca})`);
  }
  out.message(`inspector token: ${running.token} (for ${running.url}/_pinvoice/ and connectProxy; shown this once)`);
  out.message(`dashboard: ${running.dashboardLink}  (one-time, 10 minutes)`);
  const signal = await stopped;
  out.message(`${signal}: finishing requests in flight and closing the journal`);
  await running.close();
  if (replay) sayUnused(replay, flags.strict === true, (line) => out.message(line));
}
