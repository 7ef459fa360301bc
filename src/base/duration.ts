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
