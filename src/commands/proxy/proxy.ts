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
import { ProxyListenError, startProxy } from '../../proxy/server.js';
import type { ProxyFlags } from './index.js';
import { defaultJournal } from './journal-path.js';

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

function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    process.once('SIGINT', resolve);
    process.once('SIGTERM', resolve);
  });
}

export async function proxy(given: ProxyFlags): Promise<void> {
  const out = createOutput({});
  if (given.to === undefined) throw usageError("required option '--to <origin>' not specified: the gateway to pass requests to, e.g. --to https://api.gateway.example");
  const flags = { ...given, to: given.to };
  const cap = maxAmount(flags);
  tuneCollector();
  const journalFile = flags.journal ?? defaultJournal(flags.to);
  if (flags.writeEnv !== undefined) checkWritablePath(flags.writeEnv, WRITE_ENV);
  if (!loopback(flags.host)) out.message(`pinvoice proxy: warning: listening on ${flags.host}, not loopback: whoever reaches it can send requests to ${flags.to.origin} with their own token${flags.allowWrites ? ', writes included' : ''}${flags.forward ? ', and (--forward) open tunnels to any host from this machine' : ''}`);
  const stopped = untilSignal();
  let running;
  try {
    running = await startProxy({
      origin: flags.to, host: flags.host, port: flags.port, journalFile, ownJournalFolder: flags.journal === undefined, keep: flags.journalMax, allowWrites: flags.allowWrites === true,
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
  out.message(`pinvoice proxy listening on ${running.url}, forwarding to ${flags.to.origin}`);
  out.message(flags.allowWrites ? `writes: allowed${cap === undefined ? '' : `, each charge or refund at most ${formatBRL(cap)}`}` : 'writes: refused (403 proxy_write_refused; --allow-writes lets them through)');
  out.message(`journal: ${journalFile} (the newest ${flags.journalMax.toLocaleString('en')} exchanges; pinvoice logs tail --journal FILE, pinvoice drift --journal FILE)`);
  if (running.caPath !== undefined) {
    const ca = flags.journal === undefined ? `--to ${flags.to.origin}` : `--journal ${flags.journal}`;
    out.message(`forward proxy: HTTPS_PROXY=${running.url}; trust the CA at ${running.caPath} (pinvoice proxy ca ${ca})`);
  }
  out.message(`inspector token: ${running.token} (for ${running.url}/_pinvoice/ and connectProxy; shown this once)`);
  const signal = await stopped;
  out.message(`${signal}: finishing requests in flight and closing the journal`);
  await running.close();
}
