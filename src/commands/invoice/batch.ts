// `pinvoice invoice create --batch FILE|-`: each line of an NDJSON file is a create request, sent with
// at most --concurrency in flight over one keep-alive pool, with an Idempotency-Key derived from
// the file's bytes and the line (batchKey): running the same file again creates nothing twice. One
// result line per request, in input order, on stdout or in --out; progress and a summary on stderr.
// A 429 is waited out and the window narrowed (never a failed line); a rejected token stops the batch
// (exit 3), as Ctrl-C does (exit 130) once the requests in flight are answered and written.
import { closeSync, writeSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { InputError } from '../../base/input-error.js';
import { pathProblem } from '../../base/path-problem.js';
import { openPrivateFile, PrivateFileError } from '../../base/private-file.js';
import { openLinesFlag, type InputLine, type LineSource } from '../../base/read-lines.js';
import { ApiRequestError } from '../../client/errors.js';
import type { Client } from '../../client/index.js';
import { connect } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { safeJson } from '../../cli/render/safe-text.js';
import { checkBatchFlags } from './batch-flags.js';
import { batchKey, createdLine, failedLine, failure, readLine, type BatchResult } from './batch-line.js';
import { shouldUseColour } from '../../cli/render/colour.js';
import { count, lines, startProgress, summaryLine, type Tally } from './batch-progress.js';
import { createScheduler, type Scheduler } from './batch-run.js';
import type { CreateFlags } from './index.js';

interface Sink {
  write(results: BatchResult[]): void;
  close(): void;
}

/** Whole lines, each written at once: an interrupted batch leaves no line cut short. */
function openSink(out: string | undefined): Sink {
  const text = (results: BatchResult[]) => results.map((result) => `${safeJson(JSON.stringify(result))}\n`).join('');
  if (out === undefined) return { write: (results) => void process.stdout.write(text(results)), close: () => undefined };
  let fd: number;
  try {
    // the results hold what the charges were made with: payers' names, e-mails, documents
    fd = openPrivateFile(out, 'w', (line) => process.stderr.write(`--out: ${line}\n`), ', or choose another --out');
  } catch (error) {
    if (error instanceof PrivateFileError) throw new InputError(`--out: ${error.message}`);
    throw new InputError(`--out: ${pathProblem(error, out, 'write')}`);
  }
  // a write that fails midway (a full disk) is no usage mistake: exit 1, the results written so far kept
  const write = (results: BatchResult[]) => {
    try {
      writeSync(fd, text(results));
    } catch (error) {
      throw new CliError(`--out: ${pathProblem(error, out, 'write')}`, EXIT.unexpected);
    }
  };
  return { write, close: () => closeSync(fd) };
}

/** 401 (explained by connect as a CliError) or 403: no line can succeed with this token. */
const isRejection = (error: unknown) =>
  (error instanceof CliError && error.exitCode === EXIT.auth) || (error instanceof ApiRequestError && error.status === 403);

interface Run {
  client: Client;
  source: LineSource;
  scheduler: Scheduler;
  concurrency: number;
  tally: Tally;
  /** --allow-unknown-fields: lines with fields the API does not know are sent, not failed */
  allowUnknownFields: boolean;
}

/** Sends the lines; what stops the batch, or the server being out of reach, is kept in the answer. */
function lineSender({ client, source, scheduler, concurrency, tally, allowUnknownFields }: Run) {
  const state = { rejected: undefined as unknown, offline: undefined as string | undefined, networkFailures: 0, networkInARow: 0 };

  function failed(line: number, error: unknown): BatchResult | undefined {
    if (scheduler.stopped.aborted && (error as Error).name === 'AbortError') return undefined; // given up waiting out a 429
    if (isRejection(error)) {
      state.rejected ??= error;
      scheduler.stop();
      return failure(line, error instanceof ApiRequestError ? error.code : 'unauthorized', (error as Error).message);
    }
    const result = failedLine(line, error);
    if (!result) throw error;
    if (result.error !== 'network') {
      state.networkInARow = 0;
      return result;
    }
    state.networkFailures++;
    if (++state.networkInARow >= concurrency && !state.offline) {
      // as many lines in a row as may be in flight, each after its retries: the rest is not tried (a re-run sends it)
      state.offline = result.message;
      process.stderr.write(`batch: ${lines(concurrency)} in a row could not reach the server (${result.message}): the rest are not sent\n`);
    }
    return result;
  }

  async function send(input: InputLine): Promise<BatchResult | undefined> {
    const read = readLine(input, { allowUnknownFields });
    if ('failed' in read) return read.failed;
    if (state.offline) {
      state.networkFailures++;
      return failure(input.number, 'network', `not sent: ${state.offline}`);
    }
    const answer = { replayed: false };
    try {
      const { identity, ignoredFields } = await client.createInvoice(read.request, batchKey(source.sha256, input.number), answer);
      state.networkInARow = 0;
      if (answer.replayed) tally.replayed++;
      scheduler.succeeded();
      return createdLine(input.number, identity, ignoredFields);
    } catch (error) {
      return failed(input.number, error);
    }
  }
  return { send, state };
}

/** The exit after the summary: 0, 10 (some lines failed), 5 (nothing reached the server), 3, 130. */
function outcome(tally: Tally, total: number, state: ReturnType<typeof lineSender>['state'], interrupted: boolean): Error | undefined {
  if (state.rejected) return state.rejected as Error;
  if (interrupted) {
    return new CliError(`interrupted after ${count(tally.done)} of ${lines(total)}: run the same command again to finish (lines already created are answered again, not created twice)`, EXIT.cancelled);
  }
  if (tally.failed === 0) return undefined;
  if (tally.created === 0 && state.networkFailures > 0) return new CliError(`no line was created: ${state.offline ?? 'the server could not be reached'}`, EXIT.network);
  return new CliError(
    `${count(tally.failed)} of ${lines(tally.done)} failed; their result lines say why. Running the same file again retries them and creates nothing twice; ` +
      'send lines you fix in a new file (an edited file is a new batch: its lines get new keys)',
    EXIT.batchFailed,
  );
}

export async function createBatch(flags: CreateFlags): Promise<void> {
  const { path, concurrency, out } = checkBatchFlags(flags);
  const scheduler = createScheduler(concurrency);
  const waitOutRateLimit = async (ms: number) => {
    scheduler.slowDown();
    await delay(Math.max(ms, 100) + Math.random() * 100, undefined, { signal: scheduler.stopped });
  };
  const { client } = await connect(flags, { waitOutRateLimit, keepAlive: true });
  const source = await openLinesFlag('--batch', path);
  // Nothing to send is a mistake (a wrong file, an empty pipe), not a batch that went well.
  if (source.count === 0) throw new InputError(`--batch ${path === '-' ? '- (stdin)' : path}: no request in it (the input is empty or holds only blank lines); nothing was sent`);
  const sink = openSink(out);
  const tally: Tally = { done: 0, created: 0, replayed: 0, failed: 0 };
  const sender = lineSender({ client, source, scheduler, concurrency, tally, allowUnknownFields: flags.allowUnknownFields === true });
  const started = Date.now();
  // the bar moves the cursor with escape sequences: none where colour is refused (NO_COLOR, --no-color, TERM=dumb)
  const escapes = shouldUseColour({ isTTY: true, env: process.env, flag: flags.color });
  const bar = process.stderr.isTTY === true && escapes && !flags.debug && (out !== undefined || process.stdout.isTTY !== true);
  const progress = await startProgress(tally, source.count, { bar, started });
  let interrupted = false;
  const interrupt = () => {
    interrupted = true;
    scheduler.stop();
    progress.stop();
    process.stderr.write('batch: stopping: waiting for the requests in flight (Ctrl-C again quits at once)\n');
  };
  process.once('SIGINT', interrupt);
  const write = (results: BatchResult[]) => {
    sink.write(results);
    for (const result of results) tally[result.ok ? 'created' : 'failed']++;
    tally.done += results.length;
    progress.update();
  };
  try {
    await scheduler.run(source.lines(), sender.send, write);
  } finally {
    process.off('SIGINT', interrupt);
    progress.stop();
    sink.close();
  }
  process.stderr.write(`${summaryLine(tally, (Date.now() - started) / 1000)}\n`);
  if (source.changed()) process.stderr.write(`batch: warning: ${path} changed while it was read; the keys came from its first reading, so run it again only as it was\n`);
  const error = outcome(tally, source.count, sender.state, interrupted);
  if (error) throw error;
}
