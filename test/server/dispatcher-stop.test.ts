// Stopping the postback dispatcher while it looks at the queue: stop() waits for the look, so no
// statement of it runs against a store being closed (SIGTERM on PostgreSQL printed "Cannot use a pool
// after calling end on the pool" with its stack, from a look that outlived the pool). The real store,
// its queue read made slow so that the stop falls inside it.
import { describe, expect, it } from 'vitest';
import { POSTBACK_DEFAULTS } from '../../src/server/config.js';
import { createDispatcher } from '../../src/server/postbacks/dispatcher.js';
import { openStore } from '../../src/server/store/index.js';
import { ENGINE } from '../support/engine.js';

describe.skipIf(ENGINE !== 'sqlite')('the postback dispatcher, stopped mid-look', () => {
  it('waits for the look under way before it answers, and tells no error', async () => {
    const store = openStore(':memory:');
    const read = store.events.nextDueAt.bind(store.events);
    let looking = false;
    let looked = false;
    store.events.nextDueAt = async (at: string) => {
      looking = true;
      await new Promise((resolve) => setTimeout(resolve, 300));
      looked = true;
      return read(at);
    };
    const errors: unknown[] = [];
    const dispatcher = createDispatcher({ ...POSTBACK_DEFAULTS, store, clock: () => new Date(), userAgent: 'test', logError: (error) => errors.push(error) });
    dispatcher.start();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(looking).toBe(true);
    await dispatcher.stop();
    expect(looked).toBe(true); // the look ended before stop() answered
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(errors).toEqual([]);
  });
});
