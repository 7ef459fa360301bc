// Starts `pinvoice serve`: locks and opens the store, listens, seeds it on first start, and shuts down cleanly.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { listenMessage } from '../base/listen-message.js';
import { createApp } from './app.js';
import type { PostbackOptions } from './postbacks/dispatcher.js';
import { addCompany, type CreatedCompany } from './seed.js';
import { openStore, type Store } from './store/index.js';
import { lockDatabase } from './store/lock.js';

export interface ServeOptions {
  host: string;
  port: number;
  db: string;
  token?: string;
  version: string;
  pixExpirySeconds?: number;
  boletoDueDays?: number;
  postbacks?: PostbackOptions;
}

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  url: string;
  /** set when this start created the sandbox company: its token, to show once */
  seeded?: CreatedCompany;
  close(): Promise<void>;
}

export class ListenError extends Error {}

const random = (n: number) => randomBytes(n);

/** On a new database: the sandbox company. With --token: make sure that token opens the first company. */
function seed(store: Store, token: string | undefined): CreatedCompany | undefined {
  const first = store.companies.list()[0];
  if (!first) return addCompany(store, { token }, random, new Date());
  if (token && !store.companies.hasToken(token)) store.companies.addToken(first.id, token, new Date().toISOString());
  return undefined;
}

/** Binds the port, then seeds: a start that cannot listen creates no company whose token nobody sees. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const lock = lockDatabase(options.db);
  let store: Store | undefined;
  let app: FastifyInstance | undefined;
  const stop = async () => {
    try {
      await app?.close();
    } finally {
      store?.close();
      lock.release();
    }
  };
  try {
    store = openStore(options.db);
    app = createApp({
      store, version: options.version, pixExpirySeconds: options.pixExpirySeconds, boletoDueDays: options.boletoDueDays, postbacks: options.postbacks,
    });
    await listen(app, options);
    const seeded = seed(store, options.token);
    return running(app, store, options, seeded, stop);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

async function listen(app: FastifyInstance, options: ServeOptions): Promise<void> {
  try {
    await app.listen({ host: options.host, port: options.port });
  } catch (error) {
    throw new ListenError(listenMessage(error as NodeJS.ErrnoException, options.host, options.port));
  }
}

function running(app: FastifyInstance, store: Store, options: ServeOptions, seeded: CreatedCompany | undefined, stop: () => Promise<void>): RunningServer {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  const purge = setInterval(() => store.idempotency.purgeBefore(new Date(Date.now() - 86_400_000).toISOString()), 3_600_000);
  purge.unref();
  return {
    app,
    store,
    url: `http://${host}:${port}`,
    ...(seeded && !options.token && { seeded }),
    async close() {
      clearInterval(purge);
      await stop();
    },
  };
}
