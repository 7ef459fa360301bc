// Durations as people type them for the sandbox clock: "90s", "45m", "2h", "3d", "1w", "1h30m".

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/** Whole seconds of a duration, or undefined when it is not one (no unit, a zero, an unknown unit). */
export function parseDuration(text: string): number | undefined {
  const value = text.trim().toLowerCase();
  if (!/^(\d{1,9}[smhdw])+$/.test(value)) return undefined;
  let seconds = 0;
  for (const [, amount, unit] of value.matchAll(/(\d+)([smhdw])/g)) seconds += Number(amount) * (UNIT_SECONDS[unit ?? 's'] ?? 1);
  return seconds > 0 ? seconds : undefined;
}

/** 7200 -> "2h", 5400 -> "1h 30m", 90061 -> "1d 1h 1m 1s"; 0 -> "0s". */
export function formatDuration(totalSeconds: number): string {
  let left = Math.round(totalSeconds);
  const parts: string[] = [];
  for (const [unit, size] of [['d', 86_400], ['h', 3600], ['m', 60], ['s', 1]] as const) {
    if (left >= size) {
      parts.push(`${Math.floor(left / size)}${unit}`);
      left %= size;
    }
  }
  return parts.length > 0 ? parts.join(' ') : '0s';
}
