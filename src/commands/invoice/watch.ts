// Polls a charge until it leaves pending/waiting_3ds or the time runs out, with a spinner on a TTY.
import type { Transaction } from '../../api/schemas.js';
import type { Client } from '../../client/index.js';
import { safeText } from '../../cli/render/safe-text.js';
import { isWaiting } from '../../domain/status.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface WatchOptions {
  timeoutMs: number;
  intervalMs: number;
  spinner: boolean;
  sleep?: (ms: number) => Promise<void>;
}

export async function watchInvoice(client: Client, first: Transaction, options: WatchOptions): Promise<{ tx: Transaction; timedOut: boolean }> {
  const sleep = options.sleep ?? ((ms: number) => new Promise((resolve) => setTimeout(resolve, ms)));
  const started = Date.now();
  let tx = first;
  let frame = 0;
  const draw = () => {
    const seconds = Math.round((Date.now() - started) / 1000);
    process.stderr.write(`\r${FRAMES[frame++ % FRAMES.length]} ${safeText(`${tx.secureId}: ${tx.status}`)} (${seconds} s)\u001b[K`);
  };
  const spin = options.spinner ? setInterval(draw, 100) : undefined;
  try {
    while (isWaiting(tx.status)) {
      const left = options.timeoutMs - (Date.now() - started);
      if (left <= 0) return { tx, timedOut: true };
      await sleep(Math.min(options.intervalMs, left));
      tx = await client.getInvoice(tx.id);
    }
    return { tx, timedOut: false };
  } finally {
    if (spin) {
      clearInterval(spin);
      process.stderr.write('\r\u001b[K');
    }
  }
}
