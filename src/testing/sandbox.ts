// startSandbox: the real server (src/server/serve.ts's startServer) in the test's own process, on a
// free loopback port, over its own database, with a typed client, the sandbox drivers and postback
// receivers. Several run side by side; close() leaves no server, socket, timer or folder behind.
import type { FastifyInstance } from 'fastify';
import { createApp } from '../server/app.js';
import { SERVER_DEFAULTS } from '../server/config.js';
import { loadFixtures } from '../server/fixtures.js';
import { LOCATION_PATH } from '../server/pix-location/paths.js';
import { startServer } from '../server/serve.js';
import type { Store } from '../server/store/port.js';
import { chaosControl, clockControl, drive, sandboxApi, sandboxClient } from './api.js';
import { openPlace, type Place } from './engine.js';
import { checkedFixtures, namingFile } from './fixtures.js';
import { checkedStart, companyToken, type Start } from './options.js';
import { requestsControl } from './requests.js';
import type { Sandbox, StartSandbox } from './types.js';
import { startReceiver, type OwnedReceiver } from './webhooks.js';

const HOST = '127.0.0.1';

/** Runs calls one after another (a reset and a close never overlap). */
function serially() {
  let last: Promise<unknown> = Promise.resolve();
  return <T>(fn: () => Promise<T>): Promise<T> => {
    const run = last.then(fn, fn);
    last = run.catch(() => undefined);
    return run;
  };
}

export const startSandbox: StartSandbox = async (options = {}) => {
  const start = checkedStart(options);
  const token = companyToken(start.seed);
  const place = await openPlace(options.engine);
  let running;
  try {
    running = await startServer({
      host: HOST, port: 0, db: place.db, token, version: start.version, ...start.settings,
      seed: start.seed, clock: start.clock, fixtures: start.fixtures?.document,
    });
  } catch (error) {
    await place.remove();
    throw namingFile(error, start.fixtures);
  }
  const access = await running.store.companies.authenticate(token);
  if (!access) {
    await running.close();
    await place.remove();
    throw new Error(`startSandbox: the sandbox's token does not open a company in ${place.db}`);
  }
  return sandbox({ app: running.app, store: running.store, url: running.url, token, webhookSecret: access.company.webhook_secret, place, start });
};

interface Parts {
  app: FastifyInstance;
  store: Store;
  url: string;
  token: string;
  webhookSecret: string;
  place: Place;
  start: Start;
}

function sandbox(parts: Parts): Sandbox {
  const { store, url, token, webhookSecret, place, start } = parts;
  let app = parts.app;
  const client = sandboxClient(url, token, start.version);
  const receivers = new Set<OwnedReceiver>();
  const serial = serially();
  let closed = false;

  /**
   * Stops the app (postbacks in flight are cut off and finish first), clears the charges and the journal, loads the
   * fixtures again, and starts a new app on the same store and port: as new, seeded ids included.
   */
  async function restart(): Promise<void> {
    await app.close();
    await store.transaction((tx) => tx.clearCharges());
    const { settings, seed, clock, fixtures, version } = start;
    const now = clock ?? (() => new Date());
    if (fixtures !== undefined) {
      // the fixtures' charges name the API's location, as at start: the public host, or the sandbox's port
      const pixLocation = `${settings.publicHost ?? new URL(url).host}${LOCATION_PATH}`;
      await loadFixtures({ store, settings: { ...settings, pixLocation }, clock: now, seed }, checkedFixtures(fixtures, now()));
    }
    for (const owned of receivers) owned.forget();
    app = createApp({ ...settings, store, version, seed, clock });
    await app.listen({ host: HOST, port: Number(new URL(url).port) });
  }

  async function close(): Promise<void> {
    if (closed) return;
    closed = true;
    await Promise.allSettled([...receivers].map((owned) => owned.receiver.close()));
    try {
      await app.close();
    } finally {
      try {
        await store.close();
      } finally {
        await place.remove();
      }
    }
    // closed sockets and servers leave the process's handle list on the next turn of the loop
    await new Promise((resolve) => setImmediate(resolve));
  }

  return {
    url,
    token,
    webhookSecret,
    api: sandboxApi(client),
    pay: (ref) => drive(client, ref, 'pay'),
    expire: (ref) => drive(client, ref, 'expire'),
    cancel: (ref) => drive(client, ref, 'cancel'),
    chargeback: (ref) => drive(client, ref, 'chargeback'),
    clock: clockControl(client),
    chaos: chaosControl(client),
    requests: requestsControl(client, start.settings.journal ?? SERVER_DEFAULTS.journal),
    async webhooks() {
      if (closed) throw new Error('sandbox.webhooks(): the sandbox is closed');
      const owned = await startReceiver({ secret: webhookSecret, token });
      receivers.add(owned);
      const close = owned.receiver.close;
      owned.receiver.close = async () => {
        receivers.delete(owned);
        await close();
      };
      return owned.receiver;
    },
    reset: () => serial(async () => {
      if (closed) throw new Error('sandbox.reset(): the sandbox is closed');
      await restart();
    }),
    close: () => serial(close),
  };
}
