// A time a flag names as a person types it (`--since`, `--until`): a date, the start of that day where
// the user lives, or a date-time with its zone; as ISO 8601 UTC. `invoice list` and `drift` say it so.
import { parseTimestamp } from '../base/timestamp.js';
import { usageError } from './errors.js';
import { startOfDay } from './render/time.js';

/** "2026-11-25" (that day's start in the user's zone) or "2026-11-25T14:00:00-03:00" -> ISO 8601 UTC; else a usage error naming the flag. */
export function when(flag: string, value: string): string {
  const text = value.trim();
  if (/^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))) return startOfDay(text);
  const ms = /(Z|[+-]\d{2}:?\d{2})$/i.test(text) ? parseTimestamp(text) : undefined;
  if (ms === undefined) throw usageError(`${flag}: "${value}" is not a date (2026-11-25, the start of that day in your time zone) or a date-time with its zone (2026-11-25T14:00:00-03:00)`);
  return new Date(ms).toISOString();
}
