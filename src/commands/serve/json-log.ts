// `serve --log-format json`: stderr as one JSON object a line, for a log collector: each request
// answered (server/answered.ts says what of it: never a token, card, body or query) and every
// message serve writes, as {"time","level","msg"}. Loaded only with that flag.
import { safeJson } from '../../cli/render/safe-text.js';
import type { RequestLine } from '../../server/answered.js';

export type Level = 'info' | 'warn' | 'error';

export interface JsonLog {
  request(line: RequestLine): void;
  message(text: string, level?: Level): void;
  /** an unexpected error: its message, and its stack apart */
  error(error: unknown): void;
}

export function createJsonLog(write: (text: string) => void = (text) => void process.stderr.write(text), clock = () => new Date()): JsonLog {
  // (safeJson: JSON.stringify leaves DEL, C1 and bidirectional controls raw, which a terminal tailing the log would act on)
  const put = (fields: Record<string, unknown>) => write(`${safeJson(JSON.stringify({ time: clock().toISOString(), ...fields }))}\n`);
  return {
    request: (line) => put({ level: 'info', msg: 'answered', ...line }),
    message: (text, level = 'info') => put({ level, msg: text.trimEnd() }),
    error(error) {
      const stack = error instanceof Error ? error.stack : undefined;
      put({ level: 'error', msg: error instanceof Error ? error.message : String(error), ...(stack && { stack }) });
    },
  };
}
