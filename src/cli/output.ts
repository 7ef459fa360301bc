// stdout carries data, stderr carries messages; colour follows the TTY, NO_COLOR and --no-color.
// Both pass safeOutput last: renderers already made their data safe, and this catches any text that
// carries data some other way (a message naming a URL), so no control character reaches a terminal raw.
import { chooseQrTheme, createPalette, shouldUseColour, type QrTheme } from './render/colour.js';
import { safeJson, safeOutput, safeText } from './render/safe-text.js';
import { isTimeZone, useTimeZone, DEFAULT_TIME_ZONE } from './render/time.js';
import { foldMessage } from './render/width.js';
import { usageError } from './errors.js';

export interface Output {
  json: boolean;
  colour: boolean;
  palette: ReturnType<typeof createPalette>;
  stdoutIsTTY: boolean;
  /**
   * How a QR is drawn: in colours of its own unless colour is refused (--no-color, NO_COLOR, TERM=dumb;
   * a pipe alone does not refuse it, so `--qr > file` keeps a QR any theme shows), else in the
   * terminal's own colours for its theme. Throws a usage error for a PINVOICE_QR_THEME it cannot read.
   */
  qrStyle(): { colour: boolean; theme: QrTheme };
  data(text: string): void;
  /**
   * A picture (the terminal QR, or a receipt beside it) on stdout: its colour codes are part of it, so
   * they pass; any other control is escaped as ever. Only for what a renderer drew, never for data.
   */
  drawing(text: string): void;
  jsonData(value: unknown): void;
  /** One serialized JSON text as one line: the stream of `webhooks listen --json`, `serve company add --json`. */
  jsonLine(json: string): void;
  /** Lines of tab-separated fields, for `cut` and `awk`; a field's own tab or newline is escaped like any control. */
  records(rows: readonly (readonly (string | number)[])[]): void;
  message(text: string): void;
}

/**
 * The zone times are shown in: UTC with --utc, else TZ's, else São Paulo's. A TZ Node does not know is
 * refused when a time is to be shown (a command that shows none, such as serve, is not stopped by it).
 */
function chooseTimeZone(utc: boolean | undefined, env: NodeJS.ProcessEnv): string | Error {
  if (utc) return 'UTC';
  const named = env.TZ?.trim().replace(/^:/, '');
  if (!named) return DEFAULT_TIME_ZONE;
  return isTimeZone(named) ? named : usageError(`TZ "${named}" is not a time zone Node knows: use a name such as America/Sao_Paulo or UTC, or --utc`);
}

export function createOutput(flags: { json?: boolean; color?: boolean; utc?: boolean; qrTheme?: string }, env = process.env): Output {
  useTimeZone(chooseTimeZone(flags.utc, env));
  const stdoutIsTTY = process.stdout.isTTY === true;
  const colour = !flags.json && shouldUseColour({ isTTY: stdoutIsTTY, env, flag: flags.color });
  const ensureNewline = (text: string) => safeOutput(text.endsWith('\n') ? text : `${text}\n`, colour);
  return {
    json: flags.json === true,
    colour,
    palette: createPalette(colour),
    stdoutIsTTY,
    qrStyle() {
      const theme = chooseQrTheme(flags.qrTheme, env);
      if (theme instanceof Error) throw usageError(`${theme.message}: use dark or light (or --qr-theme)`);
      return { colour: shouldUseColour({ isTTY: true, env, flag: flags.color }), theme };
    },
    data: (text) => void process.stdout.write(ensureNewline(text)),
    drawing: (text) => void process.stdout.write(safeOutput(text.endsWith('\n') ? text : `${text}\n`, true)),
    jsonData: (value) => void process.stdout.write(`${safeJson(JSON.stringify(value, null, 2))}\n`),
    jsonLine: (json) => void process.stdout.write(`${safeJson(json)}\n`),
    records: (rows) => void process.stdout.write(rows.map((row) => `${row.map((field) => safeText(String(field))).join('\t')}\n`).join('')),
    // on a terminal no line is wider than it: a message is folded at its spaces (render/width.ts)
    message: (text) => void process.stderr.write(ensureNewline(foldMessage(text, process.stderr.isTTY ? process.stderr.columns : undefined))),
  };
}
