// The server's configuration, declared once with its defaults: `serve`'s flags, createApp's options
// and the tests all start from SERVER_DEFAULTS and override what they name.
import { DEFAULT_LIMITS, type Limits } from './limits.js';
import type { Durability } from './store/port.js';

export interface PostbackConfig {
  /** attempts per event, the first included (4: one try and 3 retries) */
  attempts: number;
  /** the first retry waits about this long, each next one twice as long (ms) */
  baseDelayMs: number;
  /** a receiver that has not answered by then is cut off (ms) */
  timeoutMs: number;
  /** events sent at once by one process, across charges */
  concurrency: number;
}

/** At most `max` requests per token in each window of `windowMs`. */
export interface RateLimit {
  max: number;
  windowMs: number;
}

export interface ServerConfig {
  /** how long a pix charge can be paid, in seconds */
  pixExpirySeconds: number;
  /**
   * host[:port] and path (no scheme) of the pix location written into dynamic BR Codes: the server's
   * own (see pix-location/), the listening address unless `publicHost` names another; this default
   * stands only for an app that never listens
   */
  pixLocation: string;
  /** days from today (São Paulo) to a new bank slip's due date */
  boletoDueDays: number;
  /** days after its due date a bank slip can still be paid (late) before it expires */
  boletoGraceDays: number;
  /** requests one token may make per window (429 rate_limited beyond); false: no limit */
  rateLimit: RateLimit | false;
  /** how often pending charges past their time are expired, in ms; 0 turns the timer off */
  expiryCheckMs: number;
  /** the inspector's journal: entries kept per company, the oldest dropped first (`serve --journal N`); 0 turns it off */
  journal: number;
  /**
   * the journal's room in bytes, its write-ahead log included on SQLite (`serve --journal-max-bytes`):
   * beyond it, the oldest entries of the company that keeps the most are dropped, counted
   */
  journalMaxBytes: number;
  /** how often idempotency keys past their 24 hours are forgotten, in ms; 0 turns the timer off */
  idempotencyPurgeMs: number;
  /** postback delivery, or false for none (events are still recorded) */
  postbacks: PostbackConfig | false;
  /** body size, nesting depth, timeouts and the in-flight budget */
  limits: Limits;
  /**
   * names besides the server's own (loopback, the listening address, `publicHost`) that its pages and
   * sign-in links answer at (`serve --allowed-host`, repeatable): a proxy's, a tunnel's or a Compose
   * service's name; `.example.com` allows that domain and the names under it (own-host.ts)
   */
  allowedHosts: readonly string[];
}

export const POSTBACK_DEFAULTS: PostbackConfig = { attempts: 4, baseDelayMs: 1000, timeoutMs: 10_000, concurrency: 16 };

export const SERVER_DEFAULTS: ServerConfig = {
  pixExpirySeconds: 3600,
  pixLocation: 'localhost/qr/v2',
  boletoDueDays: 3,
  boletoGraceDays: 2,
  rateLimit: false,
  expiryCheckMs: 1000,
  journal: 10_000,
  journalMaxBytes: 64 * 1024 * 1024,
  idempotencyPurgeMs: 3_600_000,
  postbacks: POSTBACK_DEFAULTS,
  limits: DEFAULT_LIMITS,
  allowedHosts: [],
};

/** What a caller may set: any part, the nested ones field by field. */
export type ServerSettings = Partial<Omit<ServerConfig, 'postbacks' | 'limits'>> & {
  postbacks?: Partial<PostbackConfig> | false;
  limits?: Partial<Limits>;
  /** host[:port] the codes' locations name (`serve --public-host`): a tunnel, a team's host */
  publicHost?: string;
};

const defined = <T extends object>(value: T): Partial<T> =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;

export function resolveConfig(settings: ServerSettings = {}): ServerConfig {
  const { postbacks, limits, publicHost, ...rest } = settings;
  return {
    ...SERVER_DEFAULTS,
    ...defined(rest),
    ...(publicHost && { pixLocation: `${publicHost}/qr/v2` }),
    postbacks: postbacks === false ? false : { ...POSTBACK_DEFAULTS, ...defined(postbacks ?? {}) },
    limits: { ...DEFAULT_LIMITS, ...defined(limits ?? {}) },
  };
}

/** `--public-host`'s longest: a BR Code's location holds 77 characters, the host then "/qr/v2/" and our 32-character txid. */
export const MAX_PUBLIC_HOST = 77 - '/qr/v2/'.length - 32;

/** Where the clock of a seeded server (`serve --seed`) stands unless told otherwise (`serve --clock`). */
export const SEEDED_START = '2026-01-01T12:00:00.000Z';

/** Commits survive a crash of the server by default; `serve --durability power` makes them survive a power cut. */
export const DEFAULT_DURABILITY: Durability = 'process';

/** A claim on an event outlives the longest delivery attempt by this much before another process may take it. */
export const LEASE_MARGIN_MS = 5000;
