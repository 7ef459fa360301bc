// `serve --fixtures FILE`: the file read as UTF-8 JSON (the words of read-input.ts when it cannot be),
// its refusal said as a usage error (exit 2) listing each JSON path at fault, and what a start loaded.
import { readJsonObjectFlag } from '../../base/read-input.js';
import { usageError } from '../../cli/errors.js';
import type { FixturesLoaded } from '../../server/fixtures.js';

export const FLAG = '--fixtures';

/** The file's one JSON object; an InputError (exit 2) for a file that cannot be read or is not JSON. */
export const readFixturesFlag = (path: string | undefined) => (path === undefined ? undefined : readJsonObjectFlag(FLAG, path));

/** A FixturesError as the CLI says it: the file, then one line per problem. */
export function fixturesRefused(path: string, details: readonly { path: string; message: string }[]) {
  const lines = details.map((d) => `  ${d.path}: ${d.message}`).join('\n');
  return usageError(`${FLAG} ${path}: nothing was loaded, the file has ${details.length === 1 ? 'a problem' : `${details.length} problems`}:\n${lines}`);
}

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "--fixtures f.json: 2 companies and 19 charges created; 3 were already in the database, left as they are" (", 2 production records" when it has some) */
export function fixturesLoadedLine(path: string, loaded: FixturesLoaded): string {
  const made = (list: { created: boolean }[]) => list.filter((item) => item.created).length;
  const companies = made(loaded.companies);
  const charges = made(loaded.charges);
  const records = made(loaded.records);
  const there = loaded.companies.length - companies + loaded.charges.length - charges + loaded.records.length - records;
  const already = there === 0 ? '' : `; ${count(there, 'was', 'were')} already in the database, left as ${there === 1 ? 'it is' : 'they are'}`;
  const kinds = [count(companies, 'company', 'companies'), count(charges, 'charge', 'charges')];
  if (loaded.records.length > 0) kinds.push(count(records, 'production record', 'production records'));
  return `${FLAG} ${path}: ${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)} created${already}`;
}
