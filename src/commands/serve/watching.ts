// serve's flags for the people who run it: --metrics and its token (--metrics-token-file, else
// PINVOICE_METRICS_TOKEN), and --log-format, which decides where every message serve writes goes.
import { usageError } from '../../cli/errors.js';
import type { Output } from '../../cli/output.js';
import { fixedSecretProblem } from '../../domain/secrets.js';
import type { AppOptions } from '../../server/app.js';
import type { MetricsAccess } from '../../server/metrics/access.js';
import type { ServeFlags } from './index.js';

export const TOKEN_FILE = '--metrics-token-file';
export const TOKEN_ENV = 'PINVOICE_METRICS_TOKEN';

/** Where the metrics token came from, as a message names it. */
export const tokenSource = (flags: ServeFlags) => (flags.metricsTokenFile === undefined ? TOKEN_ENV : `${TOKEN_FILE} ${flags.metricsTokenFile}`);

/** /metrics as the flags say: off, loopback only, or behind the token of the file (else of the environment). */
export async function metricsAccess(flags: ServeFlags, env = process.env): Promise<MetricsAccess | false> {
  if (flags.metrics === 'off') {
    if (flags.metricsTokenFile !== undefined) throw usageError(`${TOKEN_FILE} gives /metrics a token, and --metrics off turns /metrics off: give one or the other`);
    return false;
  }
  let token = env[TOKEN_ENV] || undefined;
  if (flags.metricsTokenFile !== undefined) {
    const { readTextFlag } = await import('../../base/read-input.js');
    token = (await readTextFlag(TOKEN_FILE, flags.metricsTokenFile)).trim();
  }
  const problem = token === undefined ? undefined : fixedSecretProblem(token);
  if (problem) throw usageError(`${tokenSource(flags)}: the token ${problem}`);
  return token === undefined ? {} : { token };
}

/** Where serve's messages and the app's lines go: `say` for the command's own, `app` for createApp's. */
export interface Telling {
  say(text: string, level?: 'info' | 'warn'): void;
  app: Pick<AppOptions, 'logLine' | 'logError' | 'requestLog'> & { notify?: (line: string) => void };
  /** text: the seeded token may be shown; json: it is never written to the log */
  json: boolean;
}

export async function telling(flags: ServeFlags, out: Output): Promise<Telling> {
  if (flags.logFormat !== 'json') return { say: (text) => out.message(text), app: {}, json: false };
  const log = (await import('./json-log.js')).createJsonLog();
  return {
    say: (text, level) => log.message(text, level),
    app: { logLine: (line, level) => log.message(line, level), logError: (error) => log.error(error), requestLog: (line) => log.request(line), notify: (line) => log.message(line, 'warn') },
    json: true,
  };
}
