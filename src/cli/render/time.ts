// Times as the person reading them lives them: in their time zone (TZ, else São Paulo's, where the
// gateway's merchants and payers are), the offset written beside each time, or UTC with --utc; and
// what is still ahead (a pix expiry, a boleto's due date) as a distance from now.
import { spokenDuration } from '../../base/spoken-duration.js';
import { parseTimestamp } from '../../base/timestamp.js';

/** The zone when TZ is not set: the gateway's customers are Brazilian, and support works in their time. */
export const DEFAULT_TIME_ZONE = 'America/Sao_Paulo';

let zone: string | Error | undefined;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(name: string): Intl.DateTimeFormat {
  let made = formatters.get(name);
  if (made === undefined) {
    made = new Intl.DateTimeFormat('en-US', { timeZone: name, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
    formatters.set(name, made);
  }
  return made;
}

/** Whether Node knows the zone (an IANA name such as America/Manaus, or UTC). */
export function isTimeZone(name: string): boolean {
  try {
    formatter(name);
    return true;
  } catch {
    return false;
  }
}

/** Times are shown in this zone from now on (the output path sets it once, from --utc and TZ); an error is thrown at the first time shown. */
export function useTimeZone(name: string | Error): void {
  zone = name;
}

export function timeZone(): string {
  if (zone instanceof Error) throw zone;
  return zone ?? (process.env.TZ || DEFAULT_TIME_ZONE);
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The wall-clock parts of an instant in a zone, and the zone's offset from UTC then, in minutes. */
function wallClock(ms: number, name: string) {
  const parts = Object.fromEntries(formatter(name).formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map((type) => Number(parts[type]));
  const offset = Math.round((Date.UTC(year!, month! - 1, day!, hour!, minute!, second!) - Math.floor(ms / 1000) * 1000) / 60_000);
  return { date: `${year}-${pad(month!)}-${pad(day!)}`, time: `${pad(hour!)}:${pad(minute!)}:${pad(second!)}`, offset };
}

/** "-03:00" for -180 minutes. */
const offsetText = (minutes: number) => `${minutes < 0 ? '-' : '+'}${pad(Math.floor(Math.abs(minutes) / 60))}:${pad(Math.abs(minutes) % 60)}`;

/** "2026-11-25 20:38:17 -03:00" in the zone, or "2026-11-25 23:38:17 UTC"; undefined when `text` is no timestamp. */
export function localTime(text: string, name = timeZone()): string | undefined {
  const ms = parseTimestamp(text);
  if (ms === undefined) return undefined;
  if (name === 'UTC' || name === 'Etc/UTC') return `${new Date(ms).toISOString().slice(0, 19).replace('T', ' ')} UTC`;
  const { date, time, offset } = wallClock(ms, name);
  return `${date} ${time} ${offsetText(offset)}`;
}

/** "in 42 min", "in 3 h 5 min", "in 2 days", "42 min ago": how far an instant is from now. */
export function fromNow(text: string, now = Date.now()): string | undefined {
  const ms = parseTimestamp(text);
  if (ms === undefined) return undefined;
  const minutes = Math.round(Math.abs(ms - now) / 60_000);
  const span = minutes < 1 ? 'less than a minute' : spokenDuration(minutes * 60_000);
  return ms >= now ? `in ${span}` : `${span} ago`;
}

/** Today's date (YYYY-MM-DD) in the zone. */
export const todayIn = (name: string, now = Date.now()): string => (name === 'UTC' ? new Date(now).toISOString().slice(0, 10) : wallClock(now, name).date);

/**
 * A due date (YYYY-MM-DD) against today: "due today", "due in 3 days", "2 days overdue". A boleto falls
 * due by the calendar where it is paid, Brazil's, whatever the reader's zone: São Paulo's by default.
 */
export function dueFromToday(date: string, now = Date.now(), name = DEFAULT_TIME_ZONE): string | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return undefined;
  const today = todayIn(name, now);
  const days = Math.round((Date.parse(`${date}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / 86_400_000);
  if (Number.isNaN(days)) return undefined;
  if (days === 0) return 'due today';
  if (days === 1) return 'due tomorrow';
  return days > 0 ? `due in ${days} days` : `${-days} day${days === -1 ? '' : 's'} overdue`;
}

/** The instant a local day (YYYY-MM-DD) starts in the zone, as ISO 8601 UTC: what `--since 2026-11-25` means where the user lives. */
export function startOfDay(date: string, name = timeZone()): string {
  const midnightUtc = Date.parse(`${date}T00:00:00Z`);
  if (name === 'UTC') return new Date(midnightUtc).toISOString();
  // the offset at UTC midnight, then again at the instant it gives (a DST change that day moves it)
  let at = midnightUtc - wallClock(midnightUtc, name).offset * 60_000;
  at = midnightUtc - wallClock(at, name).offset * 60_000;
  return new Date(at).toISOString();
}

/** "2026-11-25 20:38" in the zone (the compact form of a list's rows, whose header names the zone). */
export function shortLocalTime(text: string, name = timeZone()): string | undefined {
  return localTime(text, name)?.slice(0, 16);
}
