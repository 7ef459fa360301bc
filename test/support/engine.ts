// The engine a run of the suite stands on (test/vitest.config.ts runs the server and end-to-end
// suites on both), and PostgreSQL databases standing in for SQLite files when it is PostgreSQL.
import { createHash, randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

export const ENGINE: 'sqlite' | 'postgres' = process.env.PINVOICE_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

/**
 * A database of the run's PostgreSQL cluster, answered as its URL: a new one, or, given a key (the
 * path of "the same file" a test opens twice, a server restarted on it), the one named after it.
 */
export async function postgresDatabase(key?: string, prefix = 't'): Promise<string> {
  const base = inject('pgUrl');
  const suffix = key === undefined ? randomBytes(8).toString('hex') : createHash('sha256').update(key).digest('hex').slice(0, 16);
  const name = `${prefix.replace(/\W/g, '_')}_${suffix}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } catch (error) {
    if ((error as { code?: string }).code !== '42P04') throw error; // already there: the same "file" again
  } finally {
    await admin.end();
  }
  return base.replace(/\/[^/]*$/, `/${name}`);
}

/**
 * What a test gives `--db`, for the engine of the run: on SQLite the value itself; on PostgreSQL a
 * file path becomes the database named after it, and `:memory:` a new database.
 */
export async function engineDb(value: string): Promise<string> {
  if (ENGINE === 'sqlite' || /^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return value;
  return postgresDatabase(value === ':memory:' ? undefined : value);
}

/** Command-line arguments with the value of each `--db` mapped by engineDb. */
export async function engineArgs(args: string[]): Promise<string[]> {
  const out = [...args];
  for (let i = 0; i < out.length - 1; i++) if (out[i] === '--db') out[i + 1] = await engineDb(out[i + 1] as string);
  return out;
}
