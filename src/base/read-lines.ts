// Ground floor (src/base): imports nothing of ours but src/domain.
// The lines of what a flag names (a file, or stdin: `-`), for NDJSON: first the SHA-256 of every byte
// and the count of lines that are not blank, then the lines themselves, numbered as an editor numbers
// them. A file is read twice, each time as a stream, so that a large one is never held whole; stdin
// cannot be read twice, so it is held. A line that is not UTF-8 is reported as such, not read with U+FFFD.
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readStdin, unreadable } from './read-input.js';

/** A line holding something but whitespace: its 1-based number in the input, and its text or why it has none. */
export type InputLine = { number: number; text: string } | { number: number; problem: string };

export interface LineSource {
  /** hex SHA-256 of the whole input, as read before the lines */
  sha256: string;
  /** how many lines are not blank (what lines() yields) */
  count: number;
  lines(): AsyncGenerator<InputLine>;
  /** after lines() is done: the input's bytes were not the same the second time (a file written to meanwhile) */
  changed(): boolean;
}

const NEWLINE = 0x0a;
const CR = 0x0d;

/** Each line of the chunks, without its \n or \r\n; a last line without \n counts too. */
async function* splitLines(chunks: AsyncIterable<Buffer>, onChunk: (chunk: Buffer) => void): AsyncGenerator<Buffer> {
  let rest = Buffer.alloc(0);
  for await (const chunk of chunks) {
    onChunk(chunk);
    const buffer = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    let start = 0;
    for (let end = buffer.indexOf(NEWLINE); end >= 0; end = buffer.indexOf(NEWLINE, start)) {
      yield buffer.subarray(start, end > start && buffer[end - 1] === CR ? end - 1 : end);
      start = end + 1;
    }
    rest = Buffer.from(buffer.subarray(start));
  }
  if (rest.length) yield rest;
}

/** Spaces, tabs and carriage returns only (JSON's whitespace, \n aside). */
function isBlank(line: Buffer): boolean {
  for (let i = 0; i < line.length; i++) if (line[i] !== 0x20 && line[i] !== 0x09 && line[i] !== CR) return false;
  return true;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

function decode(number: number, bytes: Buffer): InputLine {
  try {
    return { number, text: decoder.decode(bytes) };
  } catch {
    const text = bytes.toString('utf8');
    const column = text.indexOf('\uFFFD');
    return { number, problem: `not UTF-8 text${column < 0 ? '' : ` (at column ${column + 1})`}` };
  }
}

/** Two readings of the same bytes (a file opened twice, or stdin held): hash and count, then the lines. */
async function openSource(read: () => AsyncIterable<Buffer>, failed: (error: unknown) => Error): Promise<LineSource> {
  const first = createHash('sha256');
  let count = 0;
  try {
    for await (const line of splitLines(read(), (chunk) => first.update(chunk))) if (!isBlank(line)) count++;
  } catch (error) {
    throw failed(error);
  }
  const sha256 = first.digest('hex');
  const second = createHash('sha256');
  let again: string | undefined;
  return {
    sha256,
    count,
    async *lines() {
      let number = 0;
      try {
        for await (const line of splitLines(read(), (chunk) => second.update(chunk))) {
          number++;
          if (!isBlank(line)) yield decode(number, line);
        }
      } catch (error) {
        throw failed(error);
      }
      again = second.digest('hex');
    },
    changed: () => again !== undefined && again !== sha256,
  };
}

/** The lines `--batch FILE` (or `-`, stdin) names; a file that cannot be read is an InputError naming the flag. */
export async function openLinesFlag(flag: string, path: string): Promise<LineSource> {
  const failed = (error: unknown) => unreadable(flag, path, error);
  if (path !== '-') return openSource(() => createReadStream(path), failed);
  const bytes = await readStdin().catch((error: unknown) => Promise.reject(failed(error)));
  return openSource(async function* () {
    yield bytes;
  }, failed);
}
