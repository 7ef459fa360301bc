// `pinvoice logs tail`: the journal as it is written, one line an entry (with --json, each entry's JSON
// as the server sent it, one a line), until Ctrl-C. Over the server's event stream: a stream that drops
// is taken up again after the last entry shown (Last-Event-ID), so nothing is missed or shown twice.
import { setTimeout as wait } from 'node:timers/promises';
import { spokenDuration } from '../../base/spoken-duration.js';
import type { Client } from '../../client/index.js';
import { ApiRequestError, NetworkError } from '../../client/errors.js';
import type { ServerEvent } from '../../client/event-stream.js';
import { connect, originOf } from '../../cli/context.js';
import { createOutput, type Output } from '../../cli/output.js';
import { journalQuery, type TailFlags } from './index.js';
import { fromFile } from './journal-file.js';

/** How often a journal file is looked at for new entries. */
const LOOK_MS = 250;
/** The wait before taking a dropped stream up again, unless the server asks for another (`retry:`). */
const RETRY_MS = 1000;

/** A failure that may pass: the server restarting, a moment without network, too many streams open. */
const passing = (error: unknown) =>
  (error instanceof NetworkError && error.retryable) || (error instanceof ApiRequestError && [429, 502, 503, 504].includes(error.status));

/** Waits `ms`, or less when `signal` stops the command. */
const pause = (ms: number, signal: AbortSignal) => wait(ms, undefined, { signal }).catch(() => undefined);

/** Prints one entry: the line, or (--json) its JSON as sent, on one line. */
async function printer(out: Output) {
  const [{ readEntry }, { entryLine }] = await Promise.all([import('../../client/read/journal.js'), import('../../cli/render/journal.js')]);
  return (event: ServerEvent) => {
    if (event.event !== 'entry') return; // the server's `error` event: it ends the stream, which is taken up again
    let entry: unknown;
    try {
      entry = JSON.parse(event.data);
    } catch {
      return out.message(`pinvoice: entry ${event.id ?? '?'} is not JSON; skipped`);
    }
    if (out.json) out.jsonLine(event.data.includes('\n') ? JSON.stringify(entry) : event.data);
    else out.data(entryLine(readEntry(entry), out.palette));
  };
}

/** Follows the stream until `signal`; the first connection's failure is the command's, later ones are waited out. */
async function follow(client: Client, query: Record<string, string>, out: Output, origin: string, signal: AbortSignal): Promise<void> {
  const onEvent = await printer(out);
  let lastEventId: string | undefined;
  let opened = false;
  let lost = false;
  let retryMs = RETRY_MS;
  const onOpen = () => {
    if (!opened) out.message(`Watching requests to ${origin} and the postbacks it sends${Object.keys(query).length > 0 ? ` (${new URLSearchParams(query).toString()})` : ''}; Ctrl-C stops.`);
    else if (lost) out.message('pinvoice: the stream is back');
    opened = true;
    lost = false;
  };
  while (!signal.aborted) {
    try {
      const end = await client.journalStream(query, { lastEventId, signal, onOpen, onEvent });
      lastEventId = end.lastId ?? lastEventId;
      retryMs = end.retryMs ?? retryMs;
    } catch (error) {
      if (!opened || !passing(error)) throw error;
      if (!lost) out.message(`pinvoice: lost the stream (${(error as Error).message}); trying again every ${spokenDuration(retryMs)}`);
      lost = true;
    }
    await pause(retryMs, signal);
  }
}

/** A proxy's journal file, looked at every LOOK_MS for entries after the newest there was at the start. */
async function followFile(file: string, query: Record<string, string>, out: Output, signal: AbortSignal): Promise<void> {
  const onEvent = await printer(out);
  const newest = await fromFile(file, async (journal) => {
    for (let after = 0; ;) {
      const page = await journal.list({ after: String(after), limit: '500' });
      if (page.data.length < 500) return page.next_cursor;
      after = page.next_cursor;
    }
  });
  out.message(`Watching ${file}${Object.keys(query).length > 0 ? ` (${new URLSearchParams(query).toString()})` : ''}; Ctrl-C stops.`);
  for (let cursor = newest; !signal.aborted; await pause(LOOK_MS, signal)) {
    const page = await fromFile(file, (journal) => journal.list({ ...query, after: String(cursor), limit: '500' }));
    for (const entry of page.data) onEvent({ event: 'entry', id: String(entry.id), data: JSON.stringify(entry) });
    cursor = page.next_cursor;
  }
}

/** Runs `follow` until SIGINT or SIGTERM stops it. */
async function untilStopped(follow: (signal: AbortSignal) => Promise<void>): Promise<void> {
  const stop = new AbortController();
  const onSignal = () => stop.abort();
  process.once('SIGINT', onSignal);
  process.once('SIGTERM', onSignal);
  try {
    await follow(stop.signal);
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  }
}

export async function tail(flags: TailFlags): Promise<void> {
  const query = journalQuery(flags);
  const out = createOutput(flags);
  const file = flags.journal;
  if (file !== undefined) return untilStopped((signal) => followFile(file, query, out, signal));
  const { client, connection } = await connect(flags);
  return untilStopped((signal) => follow(client, query, out, originOf(connection.baseUrl), signal));
}
