// What the invoice operations need from the outside world, passed in so tests can control it.
import type { Store } from '../store/index.js';

export interface ServerContext {
  store: Store;
  /** the current time; tests pass a fixed or stepping clock */
  clock: () => Date;
  /** n cryptographically strong random bytes */
  random: (n: number) => Uint8Array;
  /** how long a pix charge can be paid, in seconds */
  pixExpirySeconds: number;
  /** host and path (no scheme) of the pix payload location written into dynamic BR Codes */
  pixLocation: string;
  /** days from today (São Paulo) to a new bank slip's due date */
  boletoDueDays: number;
}
