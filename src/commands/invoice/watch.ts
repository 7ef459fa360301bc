// Polls a charge until it reaches a final status or the time runs out, with a spinner on a TTY. A status
// this version does not know (a gateway's own, such as "in_analysis") is watched through: only a known
// final status ends the watch.
import type { Client } from '../../client/index.js';
import type { TransactionView } from '../../client/read/transaction.js';
import { safeText } from '../../cli/render/safe-text.js';
import { statusGroup } from '../../domain/status.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface WatchOptions {
  timeoutMs: number;
  intervalMs: number;
  spinner: boolean;
  sleep?: (ms: number) => Promise<void>;
}

/** Whether the watch goes on: the status is a waiting one, unknown, or not given. */
export const stillOpen = (status: string | undefined) => status === undefined || statusGroup(status) === undefined || statusGroup(status) === 'waiting';

export async function watchInvoice(client: Client, first: TransactionView, options: WatchOptions): Promise<{ tx: TransactionView; timedOut: boolean }> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  const ref = first.ref;
  let tx = first;
  let frame = 0;
  const draw = () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${safeText(`${tx.secureId ?? ref ?? ''}: ${tx.status ?? '—'}`)} (${seconds} s)\u001b[K`);
  };
  const spin = options.spinner ? setInterval(draw, 100) : undefined;
  try {
    while (ref !== undefined && stillOpen(tx.status)) {
      const left = options.timeoutMs - (Date.now() - started);
      if (left <= 0) return { tx, timedOut: true };
      await sleep(Math.min(options.intervalMs, left));
      tx = await client.getInvoice(ref);
    }
    return { tx, timedOut: false };
  } finally {
    if (spin) {
      clearInterval(spin);
      process.stderr.write('\r\u001b[K');
    }
  }
}
