// The headers on every answer of the API, errors and streams included: its answers hold a company's
// data (payers' names, CPFs, charges), which no cache may keep and no browser may read as anything but
// what its Content-Type says. One frozen object per server, set once a reply (not a hook per answer).
import { SERVE_HEADER } from '../api/serve-header.js';

export const API_HEADERS = Object.freeze({ 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' });

/** API_HEADERS with Pinvoice-Serve naming this server's version. */
export const apiHeaders = (version: string): Readonly<Record<string, string>> => Object.freeze({ [SERVE_HEADER]: version, ...API_HEADERS });
