// What a store keeps, read out the way a leak would be found in it: a secret, card number or security
// code is looked for however it is kept. On SQLite, the files' bytes (the database, the journal's
// `-requests` file, their write-ahead logs) and every cell of every table; on PostgreSQL, every
// table's rows as JSON (a row's text form doubles the quotes inside a column and hides a JSON member
// from a search). In both, a BLOB that inflates (the journal's deflated bodies) is inflated, and JSON
// inside a string (an entry's detail, a body kept as text, bodies kept one after another) is read as
// JSON again, to the bottom: a member kept three strings deep shows as `"member":value`.
import { existsSync, readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import Database from 'better-sqlite3';
import pg from 'pg';

/** One place a store keeps values (a file, or a table's column) and the texts read out of it. */
export interface Kept {
  where: string;
  texts: string[];
}

/** The whole store, or the inspector's journal alone (the `-requests` file on SQLite, the journal_ tables on PostgreSQL). */
export type StorePart = 'all' | 'journal';

/** Everything the store at `db` (a SQLite file or a PostgreSQL URL) keeps, or its journal's part. */
export async function storedTexts(db: string, part: StorePart = 'all'): Promise<Kept[]> {
  if (/^postgres(ql)?:\/\//.test(db)) return postgresTexts(db, part);
  const files = part === 'journal' ? [`${db}-requests`] : [db, `${db}-requests`];
  const kept: Kept[] = [];
  for (const file of files.filter(existsSync)) {
    for (const bytes of [file, `${file}-wal`].filter(existsSync)) kept.push({ where: basename(bytes), texts: [readFileSync(bytes).toString('latin1')] });
    const handle = new Database(file, { readonly: true, fileMustExist: true });
    try {
      kept.push(...sqliteTexts(handle, basename(file)));
    } finally {
      handle.close();
    }
  }
  return kept;
}

/** Every cell of every table of an open SQLite database, read out (an in-memory store's too). */
export function sqliteTexts(db: Database.Database, label = 'sqlite'): Kept[] {
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").pluck().all() as string[];
  return tables.flatMap((table) => columnsOf(`${label}:${table}`, db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[]));
}

async function postgresTexts(url: string, part: StorePart): Promise<Kept[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = (await client.query<{ name: string }>("SELECT table_name AS name FROM information_schema.tables WHERE table_schema = 'public'")).rows
      .map((row) => row.name).filter((name) => part === 'all' || name.startsWith('journal_'));
    const kept: Kept[] = [];
    for (const table of tables) {
      const rows = (await client.query<{ row: Record<string, unknown> }>(`SELECT to_jsonb(t) AS row FROM "${table}" t`)).rows.map((r) => r.row);
      kept.push(...columnsOf(table, rows));
    }
    return kept;
  } finally {
    await client.end();
  }
}

/** A table's rows as one Kept a column. */
function columnsOf(table: string, rows: Record<string, unknown>[]): Kept[] {
  const columns = new Map<string, string[]>();
  for (const row of rows) {
    for (const [column, value] of Object.entries(row)) {
      const texts = columns.get(column) ?? [];
      columns.set(column, texts);
      readOut(value, texts);
    }
  }
  return [...columns].map(([column, texts]) => ({ where: `${table}.${column}`, texts }));
}

/** Pushes the texts a value holds: itself, what it inflates to, the JSON inside it, each member. */
function readOut(value: unknown, into: string[], depth = 0): void {
  if (value === null || value === undefined || depth > 12) return;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) {
    const bytes = Buffer.from(value);
    into.push(bytes.toString('latin1'));
    const inflated = tryInflate(bytes);
    if (inflated !== undefined) readOut(inflated, into, depth + 1);
    return;
  }
  if (typeof value === 'string') {
    into.push(value);
    // bytea, as to_jsonb writes it
    if (/^\\x(?:[0-9a-f]{2})+$/.test(value)) readOut(Buffer.from(value.slice(2), 'hex'), into, depth + 1);
    for (const parsed of jsonIn(value)) readOut(parsed, into, depth + 1);
    return;
  }
  if (typeof value !== 'object') {
    into.push(String(value));
    return;
  }
  into.push(JSON.stringify(value));
  for (const member of Object.values(value)) if (typeof member === 'object' || typeof member === 'string') readOut(member, into, depth + 1);
}

function tryInflate(bytes: Buffer): string | undefined {
  try {
    return inflateRawSync(bytes).toString('utf8');
  } catch {
    return undefined;
  }
}

/** The JSON objects and arrays in a text: the text itself, or several one after another (a journal batch's bodies). */
function jsonIn(text: string): unknown[] {
  if (!/[[{]/.test(text)) return [];
  try {
    const whole: unknown = JSON.parse(text);
    return typeof whole === 'object' && whole !== null ? [whole] : [];
  } catch {
    // not one JSON text: the JSON texts within it
  }
  const found: unknown[] = [];
  for (let at = text.search(/[[{]/); at !== -1 && at < text.length;) {
    const end = closing(text, at);
    let next = at + 1;
    if (end !== -1) {
      try {
        found.push(JSON.parse(text.slice(at, end + 1)));
        next = end + 1;
      } catch {
        // a bracket that opens no JSON: look on from the next one
      }
    }
    const ahead = text.slice(next).search(/[[{]/);
    at = ahead === -1 ? -1 : next + ahead;
  }
  return found;
}

/** Where the bracket at `start` closes, strings skipped; -1 when it does not. */
function closing(text: string, start: number): number {
  let depth = 0;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === '\\') i++;
    } else if (c === '{' || c === '[') depth++;
    else if ((c === '}' || c === ']') && --depth === 0) return i;
  }
  return -1;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The places that hold `value` as a value of its own (not inside a longer run of letters, digits and
 * dots: a code 8642 is not found in a time 1764298642113), each with the text around it.
 */
export function holding(kept: Kept[], value: string): string[] {
  const pattern = new RegExp(`(?<![A-Za-z0-9.])${escape(value)}(?![A-Za-z0-9.])`);
  const places: string[] = [];
  for (const { where, texts } of kept) {
    for (const text of texts) {
      const match = pattern.exec(text);
      if (!match) continue;
      places.push(`${where}: …${text.slice(Math.max(0, match.index - 60), match.index + value.length + 60).replace(/[^\x20-\x7e]/g, '.')}…`);
      break;
    }
  }
  return places;
}
