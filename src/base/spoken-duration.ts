// Ground floor (src/base): imports nothing of ours but src/domain.
// A duration as a person says it, for every message about a timeout, a wait or a clock: timers count
// in milliseconds and flags in seconds, but "300000 ms" or "5400 s" has to be worked out by the reader.

/** Splits `value` into whole `big` units and what is left in `small` units: "1 h 30 min", "2 min". */
const twoUnits = (value: number, size: number, big: string, small: string) => {
  const whole = Math.floor(value / size);
  const rest = value % size;
  return rest === 0 ? `${whole} ${big}` : `${whole} ${big} ${rest} ${small}`;
};

/**
 * 750 -> "750 ms", 2500 -> "2.5 s", 20000 -> "20 s", 90000 -> "1 min 30 s", 5400000 -> "1 h 30 min",
 * 75 h -> "3 days 3 h". Below an hour the seconds count; from an hour on, the minutes; from two days on, the hours.
 */
export function spokenDuration(ms: number): string {
  const value = Math.max(0, ms);
  if (Math.round(value) < 1000) return `${Math.round(value)} ms`;
  if (value < 9950 && Math.round(value / 100) % 10 !== 0) return `${(value / 1000).toFixed(1)} s`;
  const seconds = Math.round(value / 1000);
  if (seconds < 60) return `${seconds} s`;
  if (seconds < 3600) return twoUnits(seconds, 60, 'min', 's');
  const minutes = Math.round(seconds / 60);
  if (minutes < 48 * 60) return twoUnits(minutes, 60, 'h', 'min');
  return twoUnits(Math.round(minutes / 60), 24, 'days', 'h');
}

/** The same, for a count of seconds (what --timeout and the sandbox clock take). */
export const spokenSeconds = (seconds: number): string => (seconds === 0 ? '0 s' : spokenDuration(seconds * 1000));
