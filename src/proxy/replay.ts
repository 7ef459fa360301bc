// `pinvoice proxy --replay FILE` (contract, "Recordings"): answers from a recording (`--record`), with
// no network. A request matches a recorded exchange by method and path exactly, and by query and body
// (the body redacted as the recording's was, then JSON when both are) equal once what `--ignore` names
// is left out, and volatile values (times, UUIDs, prefixed ids, generated codes) count as equal to
// any other of their kind. Headers take no part. Identical requests get their recorded answers in
// order, then the last again; an unmatched one is `404 not_recorded` with the closest exchanges and
// what differs (the inspector's own comparison). Every exchange is journaled as a live one is.
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { NEAR_MISSES, type Difference } from '../api/journal.js';
import { ENTRY_HEADER, NotRecorded, READ_METHODS, RecordingLine } from '../api/proxy.js';
import { volatileKind } from '../api/shape-sample.js';
import { bodyDifferences } from '../server/journal/match.js';
import { redactedText } from '../server/journal/redact.js';
import { proxyEntry, queryOf, type Exchanged } from './entry.js';
import { bodyOf } from './forward.js';
import type { ProxyWriter } from './writer.js';

export class RecordingError extends Error {
  override readonly name = 'RecordingError';
}

type Query = Record<string, string | string[]>;

/** A recorded exchange, its body read once. */
export interface Recorded extends RecordingLine {
  line: number;
  /** the request's body as JSON, or its text when it is none */
  body: unknown;
  used: boolean;
}

/** What `--ignore` names: header names (which take no part anyway), query names, JSON pointers into the body (`*`: any one member). */
export interface Ignored {
  headers: string[];
  query: ReadonlySet<string>;
  pointers: RegExp[];
}

const parsed = (text: string | null): unknown => {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
};

/** `--ignore` values (`idempotency-key`, `header:x-request-id`, `query:page`, `/metadata/sent_at`), the default's Idempotency-Key first. */
export function ignored(values: readonly string[]): Ignored {
  const out = { headers: ['idempotency-key'], query: new Set<string>(), pointers: [] as RegExp[] };
  for (const value of values) {
    if (value.startsWith('/')) out.pointers.push(new RegExp(`^${value.split('/').map((part) => (part === '*' ? '[^/]*' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('/')}$`));
    else if (value.startsWith('query:')) out.query.add(value.slice(6));
    else out.headers.push(value.replace(/^header:/, '').toLowerCase());
  }
  return out;
}

/** The recording at `file`, every line checked; a RecordingError names the file and line of the first that is not one. */
export function loadRecording(file: string): Recorded[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new RecordingError(`${file}: ${code === 'ENOENT' ? 'no such recording (pinvoice proxy --to ORIGIN --record FILE makes one)' : code === 'EISDIR' ? 'a folder, not a recording' : (error as Error).message}`);
  }
  const recorded: Recorded[] = [];
  text.split('\n').forEach((source, index) => {
    if (source.trim() === '') return;
    const at = `${file}:${index + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(source);
    } catch {
      throw new RecordingError(`${at}: not JSON (each line of a recording is one exchange, a JSON object)`);
    }
    const line = RecordingLine.safeParse(value);
    if (!line.success) {
      const issue = line.error.issues[0];
      const pointer = (issue?.path ?? []).map((key) => `/${String(key)}`).join('');
      throw new RecordingError(`${at}: ${pointer ? `${pointer} ` : ''}${issue?.message ?? 'is not an exchange'}`);
    }
    recorded.push({ ...line.data, line: index + 1, body: parsed(line.data.request.body), used: false });
  });
  return recorded;
}

/** A request as it is matched: its body redacted as the recording's are. */
interface Asked {
  method: string;
  path: string;
  query: Query;
  body: unknown;
}

/** Two volatile values of one kind (two times, two UUIDs, two `INV-…` ids): the same, to a replay. */
function alike(expected: unknown, received: unknown): boolean {
  const kind = volatileKind(expected);
  return kind !== undefined && kind === volatileKind(received);
}

/** What differs between a recorded exchange (`expected`) and a request (`received`); none: it matches. */
export function replayDifferences(recorded: Pick<Recorded, 'request' | 'body'>, asked: Asked, ignore: Ignored): Difference[] {
  const out: Difference[] = [];
  const { method, path, query } = recorded.request;
  if (method.toUpperCase() !== asked.method) out.push({ path: 'method', expected: method, received: asked.method });
  if (path !== asked.path) out.push({ path: 'path', expected: path, received: asked.path });
  for (const name of new Set([...Object.keys(query), ...Object.keys(asked.query)])) {
    const [expected, received] = [query[name], asked.query[name]];
    if (ignore.query.has(name) || JSON.stringify(expected) === JSON.stringify(received) || alike(expected, received)) continue;
    out.push({ path: `query.${name}`, expected, ...(received !== undefined && { received }) });
  }
  if (typeof recorded.body === 'string' || typeof asked.body === 'string') {
    if (recorded.body !== asked.body) out.push({ path: '', expected: recorded.body, received: asked.body });
  } else {
    bodyDifferences(recorded.body, asked.body, '', out, { exact: true, alike: (at, expected, received) => ignore.pointers.some((pointer) => pointer.test(at)) || alike(expected, received) });
  }
  return out;
}

export interface Replay {
  readonly file: string;
  readonly recorded: readonly Recorded[];
  /** the recorded exchange that answers the request (the first of its matches not yet answered, else the last), or the closest ones */
  answer(asked: Asked): { exchange: Recorded } | { near: NotRecorded['near_misses'] };
  /** the recorded exchanges never answered */
  unused(): Recorded[];
}

export function createReplay(file: string, recorded: Recorded[], ignore: Ignored): Replay {
  const byLine = new Map<string, Recorded[]>();
  for (const exchange of recorded) {
    const key = `${exchange.request.method.toUpperCase()} ${exchange.request.path}`;
    const same = byLine.get(key);
    if (same) same.push(exchange);
    else byLine.set(key, [exchange]);
  }
  return {
    file,
    recorded,
    answer(asked) {
      const matches = (byLine.get(`${asked.method} ${asked.path}`) ?? []).filter((exchange) => replayDifferences(exchange, asked, ignore).length === 0);
      const exchange = matches.find((match) => !match.used) ?? matches.at(-1);
      if (exchange) {
        exchange.used = true;
        return { exchange };
      }
      const near = recorded.map((candidate) => ({ candidate, differences: replayDifferences(candidate, asked, ignore) }))
        .sort((a, b) => a.differences.length - b.differences.length || a.candidate.line - b.candidate.line)
        .slice(0, NEAR_MISSES);
      return {
        near: near.map(({ candidate, differences }) => ({
          request: { method: candidate.request.method, path: candidate.request.path, query: candidate.request.query, body: candidate.body },
          entry: candidate.entry ?? null, line: candidate.line, differences,
        })),
      };
    },
    unused: () => recorded.filter((exchange) => !exchange.used),
  };
}

/** Headers a replayed answer does not take from its recording: its body is the recorded text, its length its own. */
const RECOMPUTED = new Set(['content-length', 'content-encoding', 'transfer-encoding']);

/** Answers each request from the replay, and journals it (no findings: the answer is the one production gave). */
export function createReplayer(replay: Replay, writer: ProxyWriter) {
  function answer(request: IncomingMessage, response: ServerResponse, body: Buffer | undefined, { id, wall, started }: { id: number; wall: number; started: number }): void {
    const method = (request.method ?? 'GET').toUpperCase();
    const url = request.url ?? '/';
    const mark = url.indexOf('?');
    const text = body === undefined ? null : body.length === 0 ? null : body.toString('utf8');
    const asked = { method, path: mark === -1 ? url : url.slice(0, mark), query: mark === -1 ? {} : queryOf(url.slice(mark + 1)), body: text === null ? null : parsed(redactedText(text)) };
    const found = replay.answer(asked);
    let status: number;
    let answerBody: string;
    const headers: Record<string, string | string[]> = {};
    if ('exchange' in found) {
      status = found.exchange.answer.status;
      answerBody = found.exchange.answer.body ?? '';
      for (const [name, value] of Object.entries(found.exchange.answer.headers)) if (!RECOMPUTED.has(name.toLowerCase())) headers[name] = value;
    } else {
      status = 404;
      answerBody = JSON.stringify(NotRecorded.parse({
        error: 'not_recorded',
        message: `${replay.file} records no exchange that matches ${method} ${asked.path}${found.near.length === 0 ? ' (it records none at all)' : ': the closest are in near_misses, each with what differs; --ignore leaves a member out of the match'}`,
        near_misses: found.near,
      }));
      Object.assign(headers, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
    }
    const bytes = Buffer.from(answerBody);
    response.writeHead(status, { ...headers, 'content-length': String(bytes.length), [ENTRY_HEADER]: String(id) }).end(bytes);
    const exchanged: Exchanged = {
      wall, method, url, headers: request.headers, requestBody: text, status, answerBody, upstream: null,
      error: 'exchange' in found ? null : 'not_recorded', durationMs: performance.now() - started, findings: [],
    };
    writer.end(id, () => proxyEntry(exchanged), !READ_METHODS.includes(method));
  }

  return function replayOne(request: IncomingMessage, response: ServerResponse): Promise<void> | undefined {
    const begun = { id: writer.begin(), wall: Date.now(), started: performance.now() };
    const body = bodyOf(request);
    if (Buffer.isBuffer(body)) return void answer(request, response, body, begun);
    return body.then((read) => answer(request, response, read, begun));
  };
}
