// Ground floor (src/base): imports nothing of ours but src/domain.
// Env files that a shell sources (`set -a; . ./ci.env; set +a`) and dotenv parsers read alike (npm
// dotenv, python-dotenv, Node's --env-file, docker compose): `NAME=value`, one a line, no `export`.
// A value of letters, digits and `_.:/@%+,-[]` goes bare, which every reader takes as it is (also
// GitHub's GITHUB_ENV and `docker run --env-file`, which strip no quotes); any other value goes in
// single quotes, which bash and the dotenv parsers all take literally. A value holding a single quote,
// a backslash or a control character is refused: no one spelling of it reads the same everywhere.
import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import { InputError } from './input-error.js';
import { pathProblem } from './path-problem.js';
import { writePrivateFile, type Notify } from './private-file.js';

const BARE = /^[\w.:/@%+,[\]-]*$/;
const UNQUOTABLE = /['\\\p{Cc}]/u;

/** `NAME=value` lines, in the order given; `what` names where the values go, for the refusal of one. */
export function envText(vars: Record<string, string>, what: string): string {
  return Object.entries(vars)
    .map(([name, value]) => {
      if (UNQUOTABLE.test(value)) {
        throw new InputError(`${what}: ${name} holds a single quote, a backslash or a control character, which an env file cannot spell the same for bash and dotenv parsers`);
      }
      return `${name}=${BARE.test(value) ? value : `'${value}'`}\n`;
    })
    .join('');
}

/** What is at the path, if anything can be seen there. */
function statOf(path: string) {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** Refuses, before anything starts, a path whose folder is missing or that is a folder itself. */
export function checkWritablePath(path: string, flag: string): void {
  const folder = dirname(path);
  if (!statOf(folder)?.isDirectory()) throw new InputError(`${flag} ${path}: the folder ${folder} does not exist`);
  if (statOf(path)?.isDirectory()) throw new InputError(`${flag} ${path} is a folder, not a file`);
}

/** Writes the file owner-only (0600), whole or not at all (private-file.ts); a file it replaces goes, its mode with it. */
export function writeOwnerOnly(path: string, text: string, flag: string, notify: Notify): void {
  try {
    writePrivateFile(path, text, notify);
  } catch (error) {
    throw new InputError(`${flag} ${pathProblem(error, path, 'write')}`);
  }
}
