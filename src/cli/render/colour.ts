// Colour for terminal output. Everything is built on an explicit Chalk instance so that the caller,
// not chalk's own detection, decides whether escapes are written. Without colour nothing is painted,
// and chalk is not loaded: start-up is what a script piping `--json` pays for most.
import { createRequire } from 'node:module';
import { statusGroup, type StatusGroup } from '../../domain/status.js';

type Paint = (text: string) => string;

export interface Palette {
  /** whether these paints write escape codes (so any other escape in a text is not ours) */
  enabled: boolean;
  bold: Paint;
  dim: Paint;
  heading: Paint;
  ok: Paint;
  warn: Paint;
  bad: Paint;
  info: Paint;
  /** A charge status, coloured by what it means for the payer: settled, waiting, failed or returned. */
  status(status: string): string;
}

/**
 * A charge's status as a person reads it: coloured when known; one this version does not know (a
 * gateway's own) in the neutral colour, said to be unknown; none as "—".
 */
export function statusLabel(status: string | undefined, palette: Palette): string {
  if (status === undefined) return '—';
  return statusGroup(status) === undefined ? `${status} ${palette.dim('(unknown status)')}` : palette.status(status);
}

const unpainted: Paint = (text) => text;

/** What a Chalk of level 0 does: every text as it is. */
const PLAIN: Palette = {
  enabled: false,
  bold: unpainted,
  dim: unpainted,
  heading: unpainted,
  ok: unpainted,
  warn: unpainted,
  bad: unpainted,
  info: unpainted,
  status: unpainted,
};

export function createPalette(enabled: boolean): Palette {
  if (!enabled) return PLAIN;
  // Loaded when colour is wanted, where a palette is made (synchronously): chalk is an ES module,
  // which require() loads without a warning since Node 20.19.
  const { Chalk } = createRequire(import.meta.url)('chalk') as typeof import('chalk');
  const chalk = new Chalk({ level: 1 });
  const ok: Paint = (text) => chalk.green(text);
  const warn: Paint = (text) => chalk.yellow(text);
  const bad: Paint = (text) => chalk.red(text);
  const byGroup: Record<StatusGroup, Paint> = { paid: ok, waiting: warn, failed: bad, refunded: (text) => chalk.magenta(text) };
  return {
    enabled,
    bold: (text) => chalk.bold(text),
    dim: (text) => chalk.dim(text),
    heading: (text) => chalk.bold.cyan(text),
    ok,
    warn,
    bad,
    info: (text) => chalk.blue(text),
    status(status) {
      const group = statusGroup(status);
      return group ? byGroup[group](status) : status;
    },
  };
}

export interface ColourContext {
  isTTY: boolean | undefined;
  env: Readonly<Record<string, string | undefined>>;
  /** commander's value for --color / --no-color; false only when --no-color was given */
  flag?: boolean | undefined;
}

const isSet = (value: string | undefined): value is string => value !== undefined && value !== '';

/**
 * clig.dev and no-color.org: --no-color always wins; FORCE_COLOR (as chalk reads it) then overrides the
 * environment checks, so piping to `less -R` can keep colour; otherwise NO_COLOR, TERM=dumb and a
 * non-terminal stream turn it off.
 */
export function shouldUseColour({ isTTY, env, flag }: ColourContext): boolean {
  if (flag === false) return false;
  const force = env.FORCE_COLOR;
  if (isSet(force) && force !== '0' && force !== 'false') return true;
  if (isSet(env.NO_COLOR)) return false;
  if (env.TERM === 'dumb') return false;
  return isTTY === true;
}

/** Which of the terminal's two colours is the lighter: its background (light) or its text (dark). */
export type QrTheme = 'dark' | 'light';

/**
 * COLORFGBG ("15;0", "0;15", "15;default;0"), which rxvt, Konsole and iTerm2 set: its last field is the
 * background's colour number. 0–6 and 8 are the dark ones of the 16 (as vim reads it); anything else
 * that is a number is light. Absent or unreadable: undefined.
 */
export function themeFromColorFgBg(value: string | undefined): QrTheme | undefined {
  const background = value?.split(';').at(-1)?.trim() ?? '';
  if (!/^\d+$/.test(background)) return undefined;
  const n = Number(background);
  return n <= 6 || n === 8 ? 'dark' : 'light';
}

/**
 * The terminal's polarity for a QR drawn in its own colours: --qr-theme, else PINVOICE_QR_THEME, else
 * what COLORFGBG says, else dark (most terminals' default). A PINVOICE_QR_THEME that is neither word is
 * an error naming it, not a guess.
 */
export function chooseQrTheme(flag: string | undefined, env: Readonly<Record<string, string | undefined>>): QrTheme | Error {
  if (flag === 'dark' || flag === 'light') return flag;
  const named = env.PINVOICE_QR_THEME?.trim().toLowerCase();
  if (named === 'dark' || named === 'light') return named;
  if (isSet(named)) return new Error(`PINVOICE_QR_THEME "${env.PINVOICE_QR_THEME}" is neither dark nor light`);
  return themeFromColorFgBg(env.COLORFGBG) ?? 'dark';
}
