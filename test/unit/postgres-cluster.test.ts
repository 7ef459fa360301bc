// The test run's throwaway PostgreSQL cluster is removed by vitest's global teardown, in its main
// process, while that process waits to hear its last workers exit: a teardown that holds the event
// loop for 10 s has vitest report whichever worker was ending as "Timeout terminating forks worker".
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { postgresBin, startPostgres } from '../support/postgres.js';

/** How many turns of the event loop's timers came while `run` ran. */
async function turnsDuring(run: () => Promise<void>): Promise<number> {
  let turns = 0;
  const beat = setInterval(() => turns++, 5);
  try {
    await run();
    return turns;
  } finally {
    clearInterval(beat);
  }
}

describe.skipIf(!postgresBin())('the test run\'s PostgreSQL cluster', () => {
  it('is stopped and removed without holding the event loop, so vitest hears its workers exit meanwhile', async () => {
    const cluster = await startPostgres();
    // held, not one turn comes (pg_ctl alone waits 100 ms or more for the server to go)
    expect(await turnsDuring(() => cluster.close())).toBeGreaterThanOrEqual(3);
    expect(existsSync(cluster.dir)).toBe(false);
  }, 30_000);
});
