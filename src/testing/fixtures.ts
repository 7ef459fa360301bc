// startSandbox's `fixtures`: the document itself (its parsed JSON, or its JSON text), or the file that
// holds it (a path, or a file: URL), read once at start: reset() loads what was read then, so a reset
// never fails on a file edited since. A fixtures document is one JSON object, so a string is its text
// when its first character other than white space is `{`; a string with a scheme (`https://…`) is a
// URL; any other string is a path, taken from process.cwd() as `serve --fixtures` takes it.
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pathProblem } from '../base/path-problem.js';
import { utf8Text } from '../base/read-input.js';
import { FixturesError, readFixtures, type Fixtures } from '../server/fixtures.js';

export interface FixturesSource {
  /** what readFixtures takes: the parsed document, or its text */
  document: unknown;
  /** the file it was read from (absolute), named when the document is refused */
  file?: string;
}

const JSON_TEXT = /^\s*\{/;
const WITH_SCHEME = /^[a-z][a-z0-9+.-]+:\/\//i;

/** A URL of this realm or of another (jest runs a test file in a context of its own). */
const isUrl = (value: unknown): value is URL => value instanceof URL || Object.prototype.toString.call(value) === '[object URL]';

function urlFile(given: string | URL): string {
  let url: URL;
  try {
    url = new URL(String(given));
  } catch {
    throw new TypeError(`startSandbox: fixtures: ${JSON.stringify(String(given))} is not a URL`);
  }
  if (url.protocol !== 'file:') {
    throw new TypeError(`startSandbox: fixtures: ${url.href} is not a file: URL; give a file (a path or a file: URL), the document's JSON text or its parsed JSON (fetch a document on the web first)`);
  }
  try {
    return fileURLToPath(url);
  } catch (error) {
    throw new TypeError(`startSandbox: fixtures: ${url.href} does not name a file on this machine: ${(error as Error).message}`);
  }
}

function readText(file: string, given: unknown): string {
  let bytes: Buffer;
  try {
    bytes = readFileSync(file);
  } catch (error) {
    const relative = typeof given === 'string' && !isAbsolute(given) && (error as NodeJS.ErrnoException).code === 'ENOENT';
    const hint = relative ? ` (a relative path is taken from the current directory, ${process.cwd()}; new URL('./fixtures.json', import.meta.url) names a file beside the test)` : '';
    throw new Error(`startSandbox: fixtures: ${pathProblem(error, file, 'read')}${hint}`);
  }
  return utf8Text(bytes, `startSandbox: fixtures ${file}`);
}

/** The option as readFixtures takes it; a file that cannot be read is an Error naming it and why. */
export function fixturesSource(fixtures: unknown): FixturesSource | undefined {
  if (fixtures === undefined) return undefined;
  const read = (file: string): FixturesSource => ({ document: readText(file, fixtures), file });
  if (isUrl(fixtures)) return read(urlFile(fixtures));
  if (typeof fixtures !== 'string' || JSON_TEXT.test(fixtures)) return { document: fixtures };
  if (fixtures.trim() === '') throw new TypeError('startSandbox: fixtures: an empty string is neither a file path nor JSON text');
  return read(WITH_SCHEME.test(fixtures) ? urlFile(fixtures) : resolve(fixtures));
}

/** A file's document refused: the file named first, then each problem by its JSON path (as `serve --fixtures` says it). */
export function namingFile(error: unknown, source: FixturesSource | undefined): unknown {
  if (!(error instanceof FixturesError) || source?.file === undefined) return error;
  const { details } = error;
  const named = new FixturesError(details);
  const problems = details.length === 1 ? 'a problem' : `${details.length} problems`;
  named.message = `startSandbox: fixtures ${source.file}: nothing was loaded, the file has ${problems}:\n${details.map((d) => `  ${d.path}: ${d.message}`).join('\n')}`;
  return named;
}

/** The document checked again (reset(): a card's expiry is checked against the clock's now), a refusal naming its file. */
export function checkedFixtures(source: FixturesSource, now: Date): Fixtures {
  try {
    return readFixtures(source.document, now);
  } catch (error) {
    throw namingFile(error, source);
  }
}
