// The error of a sandbox.requests.wait that timed out, and its message: what was looked for, the closest
// entries field by field with their validation problems, and how many entries the window dropped (one of
// them may be the request looked for). Light on purpose: the entry point exports it.
import type { Difference, FindAnswer, NearMiss } from '../api/journal.js';
import type { RequestPattern } from './types.js';

/** A value in a message is cut beyond this many characters. */
const SHOWN_CHARS = 120;

/** wait() saw no entry matching `pattern` within its timeout; `nearMisses` are the closest, closest first. */
export class RequestNotFoundError extends Error {
  override name = 'RequestNotFoundError';

  constructor(
    message: string,
    readonly pattern: RequestPattern,
    readonly nearMisses: NearMiss[],
    /** entries dropped from the window since the journal was last cleared: the one looked for may be among them */
    readonly dropped: number,
  ) {
    super(message);
  }
}

const shown = (value: unknown): string => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN_CHARS ? `${text.slice(0, SHOWN_CHARS - 1)}…` : text;
};

/** A JSON pointer into the body, or the pattern's member; the body itself is "body". */
const member = (path: string) => (path === '' ? 'body' : path);

const differenceText = (d: Difference) =>
  `${member(d.path)} expected ${shown(d.expected)}, ${d.received === undefined ? 'received nothing' : `received ${shown(d.received)}`}`;

function entryLine({ entry, differences }: NearMiss): string {
  const query = new URLSearchParams(Object.entries(entry.query).flatMap(([name, v]) => [v].flat().map((one): [string, string] => [name, one]))).toString();
  const what = `${entry.direction === 'out' ? 'postback ' : ''}${entry.method} ${entry.path}${query ? `?${query}` : ''}`;
  return `  entry ${entry.id} ${what} ${entry.status ?? `no answer (${entry.error ?? 'none'})`}: ${differences.map(differenceText).join('; ')}`;
}

export function describeMiss(pattern: RequestPattern, answer: FindAnswer, timeout: number, keep: number, name = 'sandbox.requests', keepOption = 'startSandbox({ journal })'): string {
  const lines = [`${name}.wait: no request matching ${JSON.stringify(pattern)} within ${timeout} ms.`];
  if (answer.near_misses.length === 0) lines.push('The journal is empty: nothing was sent to the sandbox with its token (does your code call sandbox.url?).');
  else lines.push('The closest entries, closest first:');
  for (const miss of answer.near_misses) {
    lines.push(entryLine(miss));
    for (const problem of miss.problems) lines.push(`    problem ${member(problem.path)}: ${problem.message}`);
  }
  if (answer.dropped > 0) {
    const entries = answer.dropped === 1 ? '1 entry was' : `${answer.dropped} entries were`;
    lines.push(`${entries} dropped from the journal since it was last cleared (it keeps the newest ${keep}: ${keepOption}): the request may have been one of them.`);
  }
  return lines.join('\n');
}
