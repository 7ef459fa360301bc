// startSandbox's options, checked (a bad one is a TypeError or RangeError naming it) and turned into
// what the server is started with, once at start and again by reset().
import { randomBytes } from 'node:crypto';
import { allowedHostEntry } from '../base/host-port.js';
import { seededBytes, seedText } from '../base/seeded-random.js';
import { MAX_PUBLIC_HOST, type ServerSettings } from '../server/config.js';
import { generateToken } from '../server/seed.js';
import { frozenClock, SEEDED_START } from '../server/seeded.js';
import { packageVersion } from '../version.js';
import { fixturesSource, type FixturesSource } from './fixtures.js';
import type { SandboxOptions } from './types.js';

/** What the sandbox's server is started with, and started again with by reset(). */
export interface Start {
  settings: ServerSettings;
  seed: SandboxOptions['seed'];
  clock: (() => Date) | undefined;
  fixtures: FixturesSource | undefined;
  version: string;
}

export function checkedStart(options: SandboxOptions): Start {
  const { seed, clock, fixtures, postbackAttempts, journal, publicHost, allowedHosts } = options;
  if (seed !== undefined) {
    try {
      seedText(seed);
    } catch (error) {
      throw new RangeError(`startSandbox: seed: ${(error as Error).message}, not ${JSON.stringify(seed)}`);
    }
  }
  if (postbackAttempts !== undefined && !(Number.isInteger(postbackAttempts) && postbackAttempts >= 1)) {
    throw new RangeError(`startSandbox: postbackAttempts must be a whole number of at least 1, not ${JSON.stringify(postbackAttempts)}`);
  }
  if (journal !== undefined && !(Number.isInteger(journal) && journal >= 0)) {
    throw new RangeError(`startSandbox: journal must be a whole number of entries, 0 (off) or more, not ${JSON.stringify(journal)}`);
  }
  const settings: ServerSettings = {
    ...(postbackAttempts !== undefined && { postbacks: { attempts: postbackAttempts } }),
    ...(journal !== undefined && { journal }),
    ...(publicHost !== undefined && { publicHost: checkedPublicHost(publicHost) }),
    ...(allowedHosts !== undefined && { allowedHosts: checkedAllowedHosts(allowedHosts) }),
  };
  return { settings, seed, clock: serverClock(clock, seed), fixtures: fixturesSource(fixtures), version: packageVersion() };
}

/** `serve --public-host`'s rule (src/commands/serve/index.ts): a host name or address, an optional port, short enough for a code's location. */
function checkedPublicHost(value: unknown): string {
  const host = typeof value === 'string' ? value.trim().toLowerCase() : '';
  const port = /:(\d+)$/.exec(host.replace(/^\[[^\]]+\]/, ''))?.[1];
  if (!/^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:\d{1,5})?$/.test(host) || (port !== undefined && (Number(port) < 1 || Number(port) > 65535))) {
    throw new TypeError(`startSandbox: publicHost must be a host name or address with an optional port from 1 to 65535, no scheme or path ('pix.example.test', 'pix.example.test:8443'), not ${JSON.stringify(value)}`);
  }
  if (host.length > MAX_PUBLIC_HOST) {
    throw new RangeError(`startSandbox: publicHost must be at most ${MAX_PUBLIC_HOST} characters (a pix code's location, the host then /qr/v2/ and the txid, holds at most 77), not ${JSON.stringify(value)}`);
  }
  return host;
}

/** `serve --allowed-host`'s rule (src/base/host-port.ts): names or addresses without a port, or .domains. */
function checkedAllowedHosts(value: unknown): string[] {
  const list: unknown[] = Array.isArray(value) ? value : [value];
  return list.map((given) => {
    const entry = typeof given === 'string' ? allowedHostEntry(given) : undefined;
    if (entry === undefined) {
      throw new TypeError(`startSandbox: allowedHosts must be an array of host names or addresses without a port ('shop.test', '.example.test' for a domain and the names under it), and ${JSON.stringify(given)} is not one`);
    }
    return entry;
  });
}

/** An instant stands still (as `serve --clock`); a seed without one stands at SEEDED_START (as `serve --seed`). */
function serverClock(clock: SandboxOptions['clock'], seed: SandboxOptions['seed']): (() => Date) | undefined {
  if (typeof clock === 'function') return clock;
  if (clock === undefined) return seed === undefined ? undefined : frozenClock(SEEDED_START);
  if (!Number.isFinite(new Date(clock).getTime())) throw new RangeError(`startSandbox: clock must be an ISO 8601 time, a Date or a function, not ${JSON.stringify(clock)}`);
  return frozenClock(clock);
}

/** The company's token: drawn from the seed when there is one (a run repeats), else random. */
export const companyToken = (seed: SandboxOptions['seed']) =>
  generateToken(seed === undefined ? (n) => randomBytes(n) : seededBytes(seed, 'pinvoice/testing token'));
