// PostgreSQL's errors that are the store's faults: the server unreachable or restarting (a connection
// refused, lost, or silent), a full disk, an I/O error. Anything else is the statement's own error.
import { StoreFault } from '../faults.js';

/** Node's socket errors and node-postgres' own messages for a connection that failed or was lost. */
const SOCKET_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'ECONNABORTED']);
const LOST = /^(Connection terminated|Query read timeout|timeout exceeded when trying to connect|Client has encountered a connection error|Client was closed and is not queryable)/;

/**
 * Whether the error says the connection (or the server behind it) is gone, rather than a statement
 * having failed: class 08 (connection exception), 57P01–57P03 (the server shutting down, crashed,
 * or still starting), 53300 (no connection slot), or a socket error.
 */
export function isConnectionLoss(error: unknown): boolean {
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || /^57P0[123]$/.test(code) || code === '53300' || SOCKET_CODES.has(code))) return true;
  return typeof message === 'string' && LOST.test(message);
}

/** The StoreFault an error means, or undefined when it is not one. `where`: the database, password hidden. */
export function pgFault(error: unknown, where: string): StoreFault | undefined {
  if (error instanceof StoreFault) return error;
  const { code, message = '' } = error as { code?: unknown; message?: string };
  if (isConnectionLoss(error)) {
    return new StoreFault('store_unavailable', `The database ${where} does not answer (${message || String(code)}).`, 1);
  }
  if (typeof code !== 'string') return undefined;
  if (code === '53100') {
    return new StoreFault('insufficient_storage', `The disk holding the database ${where} is full (PostgreSQL: ${message}): nothing was saved; changes work again once space is freed, reads work meanwhile.`, 30);
  }
  if (code.startsWith('58') || code === '53200' || code === '25006' || code === 'XX001' || code === 'XX002') {
    return new StoreFault('store_unavailable', `The database ${where} cannot read or write (PostgreSQL ${code}: ${message}).`, 5);
  }
  return undefined;
}

/** The URL with its user and password hidden, for messages and logs. */
export const maskedUrl = (url: string) => url.replace(/\/\/[^@/]*@/, '//…@');
