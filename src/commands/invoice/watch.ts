// Polls a charge until it reaches a final status or the time runs out, with a spinner on a TTY. A status
// this version does not know (a gateway's own, such as "in_analysis") is watched through: only a known
// final status ends the watch.
import { spokenSeconds } from '../../base/spoken-duration.js';
import type { Client } from '../../client/index.js';
import type { TransactionView } from '../../client/read/transaction.js';
import { safeText } from '../../cli/render/safe-text.js';
import { displayWidth } from '../../cli/render/width.js';
import { statusGroup } from '../../domain/status.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export interface WatchOptions {
  timeoutMs: number;
  intervalMs: number;
  spinner: boolean;
  /**
   * What the spinner's line starts with: the last line of a QR drawn just above (its bottom quiet zone),
   * which the spinner draws itself so that the QR and the spinner take no more lines than the QR.
   */
  prefix?: string | undefined;
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
  const prefix = options.prefix === undefined ? '' : `${options.prefix} `;
  const room = (process.stderr.columns ?? 80) - displayWidth(prefix) - 1;
  const draw = () => {
    const waited = spokenSeconds(Math.round((Date.now() - started) / 1000));
    const long = `${tx.secureId ?? ref ?? ''}: ${tx.status ?? '—'} (${waited})`;
    // beside a QR there may be no room for the id: the payment section above the QR names the charge
    const label = displayWidth(long) + 2 <= room || prefix === '' ? long : `${tx.status ?? '—'} (${waited})`;
    const line = `${FRAMES[frame++ % FRAMES.length]} ${safeText(label)}`;
    // spaces over what a longer line left, not an erase sequence: NO_COLOR and TERM=dumb get no escape
    process.stderr.write(`\r${prefix}${line}${' '.repeat(Math.max(0, drawn - displayWidth(line)))}`);
    drawn = displayWidth(line);
  };
  let drawn = 0;
  if (options.spinner) draw();
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
      process.stderr.write(`\r${' '.repeat(displayWidth(prefix) + drawn)}\r`);
    }
  }
}
