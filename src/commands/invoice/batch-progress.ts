// What `invoice create --batch` says on stderr while it runs and when it ends: a progress bar
// (cli-progress, loaded only then) on a terminal, else a plain line every 2 s; then one summary line.

export interface Tally {
  /** lines with a result */
  done: number;
  /** lines whose charge exists: made now, or replayed (made by an earlier run of the same file) */
  created: number;
  replayed: number;
  failed: number;
}

export interface Progress {
  update(): void;
  stop(): void;
}

const PLAIN_EVERY_MS = 2000;

/** 12,345: the thousands grouped, as the benchmarks print them. */
export const count = (n: number) => Math.round(n).toLocaleString('en-US');

/** "1 line", "12,345 lines" */
export const lines = (n: number) => `${count(n)} line${n === 1 ? '' : 's'}`;

const rate = (tally: Tally, seconds: number) => (seconds > 0 ? count(tally.done / seconds) : '0');

/** `batch: 4,000 of 10,000 lines, 3,950/s, 2 failed` */
export function progressLine(tally: Tally, total: number, seconds: number): string {
  return `batch: ${count(tally.done)} of ${lines(total)}, ${rate(tally, seconds)}/s, ${count(tally.failed)} failed`;
}

/** `batch: 10,000 lines, 9,998 created (12 replayed), 2 failed, 3.1 s (3,226/s)` */
export function summaryLine(tally: Tally, seconds: number): string {
  const created = `${count(tally.created)} created (${count(tally.replayed)} replayed)`;
  return `batch: ${lines(tally.done)}, ${created}, ${count(tally.failed)} failed, ${seconds.toFixed(1)} s (${rate(tally, seconds)}/s)`;
}

function plainProgress(tally: Tally, total: number, started: number, write: (line: string) => void): Progress {
  const timer = setInterval(() => write(progressLine(tally, total, (Date.now() - started) / 1000)), PLAIN_EVERY_MS);
  timer.unref();
  return { update: () => undefined, stop: () => clearInterval(timer) };
}

async function barProgress(tally: Tally, total: number, started: number): Promise<Progress> {
  const { default: progress } = await import('cli-progress');
  const bar = new progress.SingleBar({
    stream: process.stderr,
    format: 'batch {bar} {value}/{total} lines | {rate}/s | {failed} failed | {eta_formatted} left',
    formatValue: (value, _options, type) => (type === 'value' || type === 'total' ? count(Number(value)) : String(value)),
    clearOnComplete: true,
    gracefulExit: false,
    etaBuffer: 200,
  }, progress.Presets.shades_classic);
  const payload = () => ({ rate: rate(tally, (Date.now() - started) / 1000), failed: count(tally.failed) });
  bar.start(total, 0, payload());
  let running = true;
  return {
    update: () => bar.update(tally.done, payload()),
    stop() {
      if (running) bar.stop();
      running = false;
    },
  };
}

/** The bar on a terminal, unless something else writes there meanwhile (--debug, results on the same terminal). */
export async function startProgress(tally: Tally, total: number, options: { bar: boolean; started: number }): Promise<Progress> {
  if (options.bar) return barProgress(tally, total, options.started);
  return plainProgress(tally, total, options.started, (line) => void process.stderr.write(`${line}\n`));
}
