// `serve --log-format json`: stderr as one JSON object a line, for a log collector: each request
// answered (server/answered.ts says what of it: never a token, card, body or query) and every
// message serve writes, as {"time","level","msg"}. Loaded only with that flag.
import { safeJson } from '../../cli/render/safe-text.js';
import type { RequestLine } from '../../server/answered.js';

export type Level = 'info' | 'warn' | 'error';

const FLUSH_MS = 10;

export interface JsonLog {
  request(line: RequestLine): void;
  message(text: string, level?: Level): void;
  /** an unexpected error: its message, and its stack apart */
  error(error: unknown): void;
}

export function createJsonLog(write: (text: string) => void = (text) => void process.stderr.write(text), clock = () => new Date()): JsonLog {
  // The requests' lines are written together, FLUSH_MS after the first: a write to a pipe is a system
  // call, and with one per request a cached GET took 1.74× the CPU it takes with text logs; written
  // together, 1.27× (bench/metrics-cost.ts). Messages go at once, after what is pending, in order: a
  // crash loses at most the last 10 ms of request lines, never a message.
  let pending = '';
  const flush = () => {
    if (pending === '') return;
    const text = pending;
    pending = '';
    write(text);
  };
  // (safeJson: JSON.stringify leaves DEL, C1 and bidirectional controls raw, which a terminal tailing the log would act on)
  const text = (fields: Record<string, unknown>) => `${safeJson(JSON.stringify({ time: clock().toISOString(), ...fields }))}\n`;
  const say = (fields: Record<string, unknown>) => {
    pending += text(fields);
    flush();
  };
  return {
    request(line) {
      if (pending === '') setTimeout(flush, FLUSH_MS).unref();
      pending += text({ level: 'info', msg: 'answered', ...line });
    },
    message: (message, level = 'info') => say({ level, msg: message.trimEnd() }),
    error(error) {
      const stack = error instanceof Error ? error.stack : undefined;
      say({ level: 'error', msg: error instanceof Error ? error.message : String(error), ...(stack && { stack }) });
    },
  };
}
