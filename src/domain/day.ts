// A day or an instant as a person writes one in a file or a flag ("2026-12-31", "2026-12-31T12:00:00Z"):
// where it starts and where it ends, so that "until 2026-12-31" holds through all of that day and
// "since 2026-12-01" starts at its midnight. Days are UTC days: a report read in CI and on a laptop
// in another zone says the same.

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;
const DAY_MS = 86_400_000;

export const DAY_OR_TIME = 'a date YYYY-MM-DD (a day in UTC) or an ISO 8601 date-time with its zone (2026-12-31T12:00:00Z)';

/**
 * The instant the text starts (a day: its midnight, UTC) and the instant it ends (a day: the next
 * midnight; a date-time: itself). Undefined when it is neither, or names a day the month lacks.
 */
export function parseDay(text: string): { start: number; end: number } | undefined {
  const day = DAY.exec(text);
  if (day) {
    const start = Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]));
    if (new Date(start).toISOString().slice(0, 10) !== text) return undefined;
    return { start, end: start + DAY_MS };
  }
  if (!DATE_TIME.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : { start: at, end: at };
}
