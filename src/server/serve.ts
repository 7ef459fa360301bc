// Starts `pinvoice serve`: opens the store, listens, seeds it on first start, and shuts down cleanly.
// Several processes may serve one database file: the store makes that safe (see docs/api.md, Scale).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { listenMessage } from '../base/listen-message.js';
import { createApp } from './app.js';
import type { ServerSettings } from './config.js';
import { seedStore, type CreatedCompany } from './seed.js';
import { connectStore, type StoreOptions } from './store/index.js';
import type { Store } from './store/port.js';

export interface ServeOptions extends ServerSettings, StoreOptions {
  host: string;
  port: number;
  db: string;
  token?: string;
  version: string;
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

/** Binds the port, then seeds: a start that cannot listen creates no company whose token nobody sees. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { host, port, db, token, version, durability, ...settings } = options;
  let store: Store | undefined;
  let app: FastifyInstance | undefined;
  const stop = async () => {
    try {
      await app?.close();
    } finally {
      await store?.close();
    }
  };
  try {
    store = await connectStore(db, { durability });
    app = createApp({ ...settings, store, version });
    await listen(app, host, port);
    const seeded = await seedStore(store, token, random, new Date());
    return running(app, store, host, seeded && !token ? seeded : undefined, stop);
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    throw new ListenError(listenMessage(error as NodeJS.ErrnoException, host, port));
  }
}

function running(app: FastifyInstance, store: Store, host: string, seeded: CreatedCompany | undefined, stop: () => Promise<void>): RunningServer {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { app, store, url: `http://${shownHost}:${port}`, ...(seeded && { seeded }), close: stop };
}
