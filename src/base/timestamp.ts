// Timestamps as gateways write them: any ISO 8601 date-time (0 to 9 fractional digits, `Z` or an
// offset, with or without the colon) and PHP's `YYYY-MM-DD HH:MM:SS`, which carries no zone and is
// read as UTC (as a time with a `T` and no zone is: the specification's timestamps are all UTC).
const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

/** Minutes east of UTC for "Z", "+03", "-0300", "-03:00". */
function offsetMinutes(zone: string | undefined): number {
  if (zone === undefined || zone === 'Z' || zone === 'z') return 0;
  const digits = zone.slice(1).replace(':', '');
  const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
  return zone.startsWith('-') ? -minutes : minutes;
}

/** The instant (milliseconds since the epoch) the text names, or undefined when it is not such a timestamp. */
export function parseTimestamp(text: string): number | undefined {
  const match = TIMESTAMP.exec(text.trim());
  if (!match) return undefined;
  const [, year, month, day, hour, minute, second = '0', fraction = '', zone] = match;
  const y = Number(year), mo = Number(month), d = Number(day), h = Number(hour), mi = Number(minute), s = Number(second);
  if (mo < 1 || mo > 12 || d < 1 || h > 23 || mi > 59 || s > 59) return undefined;
  const utc = Date.UTC(y, mo - 1, d, h, mi, s, Number(fraction.padEnd(3, '0').slice(0, 3)));
  // a day the month does not have (2026-02-30) rolls over in Date.UTC: refused, not moved
  if (new Date(utc).getUTCDate() !== d) return undefined;
  return utc - offsetMinutes(zone) * 60_000;
}
