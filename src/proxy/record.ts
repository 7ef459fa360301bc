// `pinvoice proxy --record FILE` (contract, "Recordings"): every exchange the client saw, appended as
// one JSON line, in the journal's id order, from the redacted texts its journal entry already holds
// (serve's redactor: no card number, no security code), its headers without Authorization, cookies and
// hop-by-hop ones. Lines are made in the journal writer's drain, off the answer's path, and appended
// a batch at a time (one write per drain) to an owner-only file. A write that fails (a full disk) is
// said once and the recording stops there, whole lines only; the proxy goes on serving and journaling.
import { existsSync } from 'node:fs';
import { closeSync, fstatSync, ftruncateSync, readSync, write } from 'node:fs';
import { dirname } from 'node:path';
import type { IncomingMessage } from 'node:http';
import { BODY_CAP_BYTES } from '../api/journal.js';
import type { RecordingLine } from '../api/proxy.js';
import { InputError } from '../base/input-error.js';
import { openPrivateFile, ownFolder, PrivateFileError, type Notify } from '../base/private-file.js';
import { redactedText } from '../server/journal/redact.js';
import type { NewJournalEntry } from '../server/store/port.js';
import { queryOf, type Exchanged } from './entry.js';

/** Never written: credentials, what only one hop means, and a length (a body recorded redacted has its own). */
const LEFT_OUT = new Set(['authorization', 'proxy-authorization', 'cookie', 'set-cookie', 'content-length', 'connection', 'keep-alive', 'proxy-connection', 'proxy-authenticate', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
/**
 * A header whose name says it carries a credential (`X-Api-Key`, `X-Auth-Token`, `X-Session-Id`,
 * `X-Client-Secret`…): an integration may send its key in one instead of Authorization; never written.
 */
const CREDENTIAL_NAME = /auth|token|secret|api[-_]?key|session|password|passwd|signature|credential/i;
/** An answer's body is recorded decoded: its encoding would no longer be true of it. */
const ANSWER_LEFT_OUT = new Set(['content-encoding']);

/** Headers as a recording keeps them: lower-case names, a repeated one a list, those above left out. */
function recordedHeaders(distinct: Record<string, string[] | undefined>, alsoLeftOut?: ReadonlySet<string>): Record<string, string | string[]> {
  const named = new Set((distinct.connection ?? []).flatMap((value) => value.split(',').map((token) => token.trim().toLowerCase())));
  const out: Record<string, string | string[]> = {};
  for (const [name, values] of Object.entries(distinct)) {
    if (values === undefined || LEFT_OUT.has(name) || CREDENTIAL_NAME.test(name) || named.has(name) || alsoLeftOut?.has(name)) continue;
    out[name] = values.length === 1 ? (values[0] as string) : values;
  }
  return out;
}

const CUT = /…\[cut: \d+ bytes\]$/;

/** The entry's redacted text, or the whole text redacted anew where the journal kept only its first 64 KiB. */
function whole(kept: string | Buffer | null, original: string | null): string | null {
  if (kept === null || original === null || original === '') return null;
  const text = typeof kept === 'string' ? kept : kept.toString('utf8');
  return original.length > BODY_CAP_BYTES / 4 && CUT.test(text) ? redactedText(original) : text;
}

/** What a recording's line is made of: the exchange, its journal entry, and the two messages' headers. */
export interface LineSource {
  id: number;
  entry: NewJournalEntry;
  exchanged: Exchanged;
  request: IncomingMessage;
  /** the gateway's answer (null: the proxy answered by itself, a refusal or a fault) */
  answer: IncomingMessage | null;
  /** the answer's body was kept for the journal (false: over 1 MiB, or in an encoding not undone) */
  bodyKept: boolean;
}

/** The exchange's line (with its newline), or undefined for one the client saw no whole answer to, or whose body was not kept. */
export function recordedLine({ id, entry, exchanged, request, answer, bodyKept }: LineSource): string | undefined {
  if (entry.status === null || !bodyKept) return undefined;
  const mark = exchanged.url.indexOf('?');
  const line: RecordingLine = {
    at: new Date(entry.at).toISOString(),
    entry: id,
    request: {
      method: entry.method, path: entry.path, query: mark === -1 ? {} : queryOf(exchanged.url.slice(mark + 1)),
      headers: recordedHeaders(request.headersDistinct), body: whole(entry.request_body, exchanged.requestBody),
    },
    answer: {
      status: entry.status,
      headers: answer === null ? { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' } : recordedHeaders(answer.headersDistinct, ANSWER_LEFT_OUT),
      body: whole(entry.response_body, exchanged.answerBody),
    },
  };
  return `${JSON.stringify(line)}\n`;
}

export interface Recording {
  readonly file: string;
  /** appends whole lines, in one write (after those before it) */
  append(lines: readonly string[]): void;
  /** once what was appended is written (or given up) */
  close(): Promise<void>;
}

/** Where the file's last whole line ends: a run killed in the middle of a write may have left part of one after it. */
function wholeLinesEnd(fd: number, size: number): number {
  const chunk = Buffer.alloc(64 * 1024);
  for (let end = size; end > 0; ) {
    const start = Math.max(0, end - chunk.length);
    const read = readSync(fd, chunk, 0, end - start, start);
    const at = chunk.subarray(0, read).lastIndexOf(0x0a);
    if (at !== -1) return start + at + 1;
    end = start;
  }
  return 0;
}

const newlines = (bytes: Buffer) => {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) count++;
  return count;
};

/** Opens FILE to append to (a second run goes on after the first's lines), owner-only; its folder made 0700 when missing. */
export function openRecording(file: string, notify: Notify): Recording {
  let fd: number;
  try {
    if (!existsSync(dirname(file))) ownFolder(dirname(file), notify);
    fd = openPrivateFile(file, 'a+', notify, ' or give another --record');
  } catch (error) {
    if (error instanceof PrivateFileError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    throw new InputError(`--record ${file}: ${code === 'EISDIR' ? 'a folder, not a file' : (error as Error).message}`);
  }
  const found = fstatSync(fd).size;
  let size = wholeLinesEnd(fd, found);
  if (size < found) {
    ftruncateSync(fd, size);
    notify(`recording: ${file} ended in part of a line (${found - size} bytes, from a run stopped while writing it): removed, the whole lines before it kept`);
  }
  let pending: string[] = [];
  let lines = 0;
  let writing = false;
  let stopped = false;
  const idle: Array<() => void> = [];

  /** A write failed: said once, the file cut back to its last whole line, nothing more written. */
  function stop(error: NodeJS.ErrnoException): void {
    stopped = true;
    pending = [];
    try {
      ftruncateSync(fd, size);
    } catch {
      // (what was written is whole lines up to `size`; a truncate that fails leaves at most one partial line after it)
    }
    notify(`recording: cannot write to ${file} (${error.code ?? error.message}): the recording stops after its ${lines} exchange${lines === 1 ? '' : 's'} of this run, each line whole; the proxy goes on serving and journaling`);
  }

  function next(): void {
    if (writing || stopped || pending.length === 0) {
      if (!writing) for (const done of idle.splice(0)) done();
      return;
    }
    const bytes = Buffer.from(pending.join(''));
    pending = [];
    writing = true;
    write(fd, bytes, 0, bytes.length, null, (error, written) => {
      writing = false;
      if (error || written === 0) return void (stop(error ?? Object.assign(new Error('nothing written'), { code: 'ENOSPC' })), next());
      if (written < bytes.length) {
        // a short write (the disk filling up): keep the whole lines written, and send the rest again
        const upto = bytes.lastIndexOf(0x0a, written - 1) + 1;
        // (not one line whole: the disk is full, and cutting the part back would only make room for the same part again)
        if (upto === 0) return void (stop(Object.assign(new Error('no space left on device'), { code: 'ENOSPC' })), next());
        size += upto;
        try {
          ftruncateSync(fd, size);
        } catch (truncate) {
          return void (stop(truncate as NodeJS.ErrnoException), next());
        }
        lines += newlines(bytes.subarray(0, upto));
        pending.unshift(bytes.subarray(upto).toString('utf8'));
      } else {
        size += written;
        lines += newlines(bytes);
      }
      next();
    });
  }

  return {
    file,
    append(batch) {
      if (stopped) return;
      pending.push(...batch);
      next();
    },
    async close() {
      await new Promise<void>((resolve) => {
        idle.push(resolve);
        next();
      });
      closeSync(fd);
    },
  };
}
