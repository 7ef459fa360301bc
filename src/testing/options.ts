// startSandbox's options, checked (a bad one is a TypeError or RangeError naming it) and turned into
// what the server is started with, once at start and again by reset().
import { randomBytes } from 'node:crypto';
import { seededBytes, seedText } from '../base/seeded-random.js';
import type { ServerSettings } from '../server/config.js';
import { generateToken } from '../server/seed.js';
import { frozenClock, SEEDED_START } from '../server/seeded.js';
import { packageVersion } from '../version.js';
import type { SandboxOptions } from './types.js';

/** What the sandbox's server is started with, and started again with by reset(). */
export interface Start {
  settings: ServerSettings;
  seed: SandboxOptions['seed'];
  clock: (() => Date) | undefined;
  fixtures: unknown;
  version: string;
}

export function checkedStart(options: SandboxOptions): Start {
  const { seed, clock, fixtures, postbackAttempts, journal } = options;
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
  };
  return { settings, seed, clock: serverClock(clock, seed), fixtures, version: packageVersion() };
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
