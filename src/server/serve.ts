// Starts `pinvoice serve`: opens the store, listens, seeds it on first start, and shuts down cleanly.
// Several processes may serve one database file: the store makes that safe (see docs/api.md, Scale).
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { listenMessage } from '../base/listen-message.js';
import { PrivateFileError, type Notify } from '../base/private-file.js';
import type { Seed } from '../base/seeded-random.js';
import { createApp, type AppOptions } from './app.js';
import type { ServerSettings } from './config.js';
import { loadFixtures, readFixtures, type FixturesLoaded } from './fixtures.js';
import { seedStore, type CreatedCompany } from './seed.js';
import { frozenClock, holdsCharges, SEEDED_START, seededSources } from './seeded.js';
import { connectStore, type StoreOptions } from './store/index.js';
import type { Store } from './store/port.js';
import { FIRST_LINK_MS, makeLinkCode } from './dashboard/session.js';
import { certificateHosts, hostName, listeningHost, scratchKeyFolder } from './pix-location/host.js';
import { locationKeys, type LocationKeys } from './pix-location/key-folder.js';
import { LOCATION_PATH } from './pix-location/paths.js';

export interface ServeOptions extends ServerSettings, StoreOptions, Pick<AppOptions, 'metrics' | 'requestLog' | 'logLine' | 'logError'> {
  host: string;
  port: number;
  db: string;
  token?: string;
  version: string;
  /** as createApp's; the first company's CNPJ, token and webhook secret are drawn from it too */
  seed?: Seed;
  /** the server's clock (default: the system's; with a seed, one that stands at SEEDED_START) */
  clock?: () => Date;
  /** a fixtures file's JSON (or text), loaded after seeding; checked before anything opens (FixturesError) */
  fixtures?: unknown;
  /** where the pix location's CA and leaves are kept (`serve`: keyFolderFor its database; default: a scratch folder of the user's) */
  keyFolder?: string;
  /** serve HTTPS with a leaf of that CA (`--tls`) */
  tls?: boolean;
}

export interface RunningServer {
  app: FastifyInstance;
  store: Store;
  url: string;
  /** set when this start created the sandbox company: its token, to show once */
  seeded?: CreatedCompany;
  /** with `seeded`: a one-time link that signs in to the dashboard as its token (for a day) */
  signInUrl?: string;
  /** what the database holds of the fixtures given (created now, or already there) */
  fixtures?: FixturesLoaded;
  close(): Promise<void>;
}

export class ListenError extends Error {}

/** The pix location's keys cannot be kept (a folder that cannot be written): the message names it. */
export class KeyFolderError extends Error {}

/** Reads (or makes) the keys, a folder that cannot be written said as such rather than as a bare errno. */
async function keysIn(folder: string, hosts: readonly string[], vault: Store['keyVault'], notify: Notify): Promise<LocationKeys> {
  try {
    return await locationKeys(folder, hosts, vault, undefined, notify);
  } catch (error) {
    if (error instanceof PrivateFileError) throw new KeyFolderError(error.message);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === undefined) throw error;
    throw new KeyFolderError(`cannot keep the pix location's keys in ${folder} (${code}): choose a --db in a folder you can write, or PINVOICE_DATA_DIR for :memory:`);
  }
}

/** The token given for /metrics opens a company's API (--token, or one in the database): /metrics must have its own. */
export class MetricsTokenError extends Error {}

/** A seed given for a database that already holds charges: the run would repeat (and collide with) their ids. */
export class SeedError extends Error {}

const random = (n: number) => randomBytes(n);
/** where a file found readable by others and made owner-only is told (as the app's log lines) */
const toStderr: Notify = (line) => console.error(line);

/** Binds the port, then seeds: a start that cannot listen creates no company whose token nobody sees. */
export async function startServer(options: ServeOptions): Promise<RunningServer> {
  const { host, port, db, token, version, durability, connectTimeoutMs, checkBeforeBytes, seed, fixtures: file, keyFolder = scratchKeyFolder(), tls, notify = toStderr, ...settings } = options;
  const clock = options.clock ?? (seed === undefined ? undefined : frozenClock(SEEDED_START));
  // a bad file is refused before the database is opened: nothing is written
  const fixtures = file === undefined ? undefined : readFixtures(file, (clock ?? (() => new Date()))());
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
    store = await connectStore(db, { durability, connectTimeoutMs, checkBeforeBytes, notify });
    const now = clock ?? (() => new Date());
    if (seed !== undefined && (await holdsCharges(store, now()))) {
      throw new SeedError('a seeded run starts from a database without charges, and this one holds some (their ids would repeat): use a new database file, or :memory:');
    }
    const metricsToken = settings.metrics ? settings.metrics.token : undefined;
    if (metricsToken !== undefined && (metricsToken === token || (await store.companies.authenticate(metricsToken)))) {
      throw new MetricsTokenError("it is a company's API token: give /metrics a token of its own, which opens nothing else");
    }
    // the keys are read (or made) at start only for TLS; otherwise on the first fetch of a location
    const hosts = certificateHosts(host, settings.publicHost && hostName(settings.publicHost));
    const vault = store.keyVault; // PostgreSQL: in the database the nodes share; SQLite: in the folder
    const keys = tls ? await keysIn(keyFolder, hosts, vault, notify) : undefined;
    const pixKeys = keys ? async () => keys : () => keysIn(keyFolder, hosts, vault, notify);
    const https = keys && { key: keys.leaf.key, cert: keys.leaf.cert + keys.ca.cert };
    app = createApp({ ...settings, store, version, seed, clock, pixKeys, ...(https && { https }) });
    await listen(app, host, port);
    const seeded = await seedStore(store, token, seed === undefined ? random : seededSources(seed).company, now());
    // the fixtures' charges name the same location as the API's: the public host, or the port now bound
    const pixLocation = `${settings.publicHost ?? listeningHost(host, app.server.address())}${LOCATION_PATH}`;
    const loaded = fixtures && (await loadFixtures({ store, settings: { ...settings, pixLocation }, clock: now, seed }, fixtures));
    const started = running(app, store, host, tls ? 'https' : 'http', seeded && !token ? seeded : undefined, stop);
    // (no request to take a Host from: --public-host, else the listening address)
    const signInUrl = started.seeded && (await firstSignInLink(store, started.seeded.token, app.ownHosts.origin(), Date.now()));
    return { ...started, ...(signInUrl && { signInUrl }), ...(loaded && { fixtures: loaded }) };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}

/** The dashboard's sign-in link for the company this start created, shown with its token. */
async function firstSignInLink(store: Store, token: string, origin: string, now: number): Promise<string | undefined> {
  const access = await store.companies.authenticate(token);
  if (!access) return undefined;
  const { code } = await makeLinkCode(store, access, now, FIRST_LINK_MS);
  return `${origin}/dashboard/sign-in?code=${code}`;
}

async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    throw new ListenError(listenMessage(error as NodeJS.ErrnoException, host, port));
  }
}

function running(app: FastifyInstance, store: Store, host: string, scheme: 'http' | 'https', seeded: CreatedCompany | undefined, stop: () => Promise<void>): RunningServer {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const shownHost = host.includes(':') ? `[${host}]` : host;
  return { app, store, url: `${scheme}://${shownHost}:${port}`, ...(seeded && { seeded }), close: stop };
}
