// A long-running process's JavaScript heap kept near what it holds (`pinvoice serve`, not a library
// user's process: V8's flags are the whole process's). By default V8 lets the old generation grow to
// up to four times what survived its last full collection, and the young one to 2 × 16 MB, which for
// a server that holds ~20 MB is most of its RSS (docs/benchmarks.md, "serve's memory by part"). Both
// are set at run time, where V8 reads them at each step (its size limits, --max-old-space-size and
// --max-semi-space-size, are read once, before any of our code runs):
//   - the old generation grows by OLD_GROWTH_PERCENT beyond what survived (`--heap-growing-percent`);
//   - the young generation grows as usual (each step doubles it) up to YOUNG_BYTES, then no further
//     (`--semi-space-growth-factor=1` from there, 2 again if V8 shrinks it for a quiet while).
// They are set again after every collection: a worker thread's start (the SQLite journal's) sets
// every V8 flag back to the process's own.
import v8 from 'node:v8';
import { PerformanceObserver } from 'node:perf_hooks';

/** beyond what survived the last full collection, how much the old generation may grow before the next */
export const OLD_GROWTH_PERCENT = 60;
/** the young generation's two halves, together, at most about this */
export const YOUNG_BYTES = 8 * 1024 * 1024;

const youngSize = (): number => v8.getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

let active: (() => void) | undefined;

/**
 * Sets the heap's growth for this process, until the returned stop (which leaves the flags where they
 * are). Called again while it runs, it changes nothing (bin/pinvoice.js calls it first, then serve).
 */
export function keepHeapLean(): () => void {
  if (active) return active;
  const check = () => {
    // (looked at once a collection is over: no step beyond the bound)
    const full = youngSize() * 2 > YOUNG_BYTES;
    v8.setFlagsFromString(`--heap-growing-percent=${OLD_GROWTH_PERCENT} --semi-space-growth-factor=${full ? 1 : 2}`);
  };
  check();
  // after each collection: the young generation grows only at the end of one
  const observer = new PerformanceObserver(check);
  observer.observe({ entryTypes: ['gc'] });
  active = () => {
    observer.disconnect();
    active = undefined;
  };
  return active;
}
