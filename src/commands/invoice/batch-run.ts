// The scheduler of `invoice create --batch`: lines are taken one at a time and handled with at most
// `window` of them in flight; results are written in input order, each as soon as every earlier line
// has its own. The window halves while the server answers 429 and grows back by one for each window of
// successes (additive increase, multiplicative decrease, as TCP does). Lines done but waiting for an
// earlier one are bounded too, so that a line held up (waiting out a 429) never lets memory grow.
// A stop (Ctrl-C, a rejected token) starts nothing more; the lines in flight finish and are written.
import type { InputLine } from '../../base/read-lines.js';
import type { BatchResult } from './batch-line.js';

interface Slot {
  settled: boolean;
  /** none for a line given up when the batch stopped (it was not created: a re-run sends it) */
  result?: BatchResult;
}

type Handle = (input: InputLine) => Promise<BatchResult | undefined>;
/** consecutive results, in input order */
type Write = (results: BatchResult[]) => void;

export function createScheduler(concurrency: number) {
  const stopper = new AbortController();
  const order: Slot[] = [];
  const maxWaiting = concurrency * 64;
  let window = concurrency;
  let inFlight = 0;
  let startedSinceCut = 0;
  let grown = 0;
  let wake: (() => void) | undefined;
  let failure: { error: unknown } | undefined;

  const signal = () => {
    wake?.();
    wake = undefined;
  };
  const hasRoom = () => inFlight < window && order.length < maxWaiting;

  function flush(write: Write): void {
    const done: BatchResult[] = [];
    while (order[0]?.settled) {
      const { result } = order.shift() as Slot;
      if (result) done.push(result);
    }
    if (done.length > 0) write(done);
  }

  function stop(): void {
    stopper.abort();
    signal();
  }

  /** Not a line's failure (a bug, a full disk): the batch stops, and run() throws it once the lines in flight are done. */
  function fail(error: unknown): void {
    failure ??= { error };
    stop();
  }

  function start(input: InputLine, handle: Handle, write: Write): Promise<void> {
    const slot: Slot = { settled: false };
    order.push(slot);
    inFlight++;
    startedSinceCut++;
    return handle(input)
      .then((result) => void (slot.result = result), fail)
      .finally(() => {
        slot.settled = true;
        inFlight--;
        try {
          flush(write);
        } catch (error) {
          fail(error);
        }
        signal();
      });
  }

  return {
    /** aborted once the batch stops: what waits (a 429's pause) stops waiting */
    stopped: stopper.signal,
    stop,
    /** how many lines may be in flight now */
    window: () => window,
    /** A 429: halve the window, once per window of requests (the 429s of one burst cut it once). */
    slowDown(): void {
      if (startedSinceCut < window) return;
      window = Math.max(1, Math.floor(window / 2));
      startedSinceCut = 0;
      grown = 0;
    },
    /** A line created: after a window's worth of them, the window grows by one, up to --concurrency. */
    succeeded(): void {
      if (window >= concurrency || ++grown < window) return;
      window++;
      grown = 0;
      signal();
    },
    /** Handles every line (or those before a stop); throws what a handler threw that was not a line's failure. */
    async run(lines: AsyncIterable<InputLine>, handle: Handle, write: Write): Promise<void> {
      const running = new Set<Promise<void>>();
      try {
        for await (const input of lines) {
          while (!hasRoom() && !stopper.signal.aborted) await new Promise<void>((resolve) => (wake = resolve));
          if (stopper.signal.aborted) break;
          const done = start(input, handle, write);
          running.add(done);
          void done.then(() => running.delete(done));
        }
      } finally {
        await Promise.all(running); // (also when reading the input failed: what was sent is answered and written)
      }
      if (failure) throw failure.error;
    },
  };
}

export type Scheduler = ReturnType<typeof createScheduler>;
