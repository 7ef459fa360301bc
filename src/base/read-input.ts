// Ground floor (src/base): imports nothing of ours but src/domain.
// What a flag names to read: a file or stdin (`-`), as bytes checked to be UTF-8, as text, or as one
// JSON object. Text read with U+FFFD in it would be stored as is, so anything not UTF-8 is refused.
import { readFileSync } from 'node:fs';
import { InputError } from './input-error.js';
import { pathProblem } from './path-problem.js';

export { InputError };

/** All of stdin, as bytes. */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const REPLACEMENT = Buffer.from('\uFFFD');

/** The offset of the first byte that is not valid UTF-8 (-1 if none): where Node's decoder put a U+FFFD of its own. */
function firstBadByte(bytes: Buffer): number {
  let offset = 0;
  for (const char of bytes.toString('utf8')) {
    if (char === '\uFFFD' && !bytes.subarray(offset, offset + 3).equals(REPLACEMENT)) return offset;
    offset += Buffer.byteLength(char);
  }
  return -1;
}

const sourceOf = (flag: string, path: string) => (path === '-' ? `${flag} - (stdin)` : `${flag} ${path}`);

/** UTF-8 text, or an InputError naming the flag, the file and the first bad byte: never text read with U+FFFD in it. */
export function utf8Text(bytes: Buffer, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstBadByte(bytes);
    const where = at < 0 ? '' : ` (byte 0x${bytes[at]?.toString(16).toUpperCase().padStart(2, '0')} at offset ${at})`;
    throw new InputError(`${source}: not UTF-8 text${where}; convert it to UTF-8 (e.g. iconv -f ISO-8859-1 -t UTF-8)`);
  }
}

/** What --token-stdin and the like read: stdin as UTF-8 text. */
export async function readStdinText(flag: string): Promise<string> {
  return utf8Text(await readStdin(), `${flag} (stdin)`);
}

/** A file a flag names cannot be read: "--file: ./charges is a folder, not a file" (path-problem.ts words the errno). */
export const unreadable = (flag: string, path: string, error: unknown) => new InputError(`${flag}: ${pathProblem(error, path, 'read')}`);

async function readBytes(flag: string, path: string): Promise<Buffer> {
  try {
    return path === '-' ? await readStdin() : readFileSync(path);
  } catch (error) {
    throw unreadable(flag, path, error);
  }
}

/** The bytes a file flag names (`-`: stdin), checked to be UTF-8; an unreadable file is an InputError naming the flag. */
export async function readFileFlag(flag: string, path: string): Promise<Buffer> {
  const bytes = await readBytes(flag, path);
  utf8Text(bytes, sourceOf(flag, path));
  return bytes;
}

/** The text a file flag names, as UTF-8 (a byte order mark dropped). */
export async function readTextFlag(flag: string, path: string): Promise<string> {
  return utf8Text(await readBytes(flag, path), sourceOf(flag, path));
}

/** The one JSON object a file flag names (`--file charge.json`, `--file -`). */
export async function readJsonObjectFlag(flag: string, path: string): Promise<Record<string, unknown>> {
  const text = await readTextFlag(flag, path);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(`${sourceOf(flag, path)}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new InputError(`${sourceOf(flag, path)}: must hold one JSON object`);
  return value as Record<string, unknown>;
}
