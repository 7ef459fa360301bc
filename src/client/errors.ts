// Typed client failures. Kept free of heavy imports so the entry point can map them to exit codes.
import type { ErrorDetail } from '../api/schemas.js';

/** The server answered with an error status. */
export class ApiRequestError extends Error {
  /** what a 404 was the answer to ('charge "4242"'), for a message naming it */
  lookedUp?: string;

  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    /** the message already says the status and where from ("HTTP 502 Bad Gateway from https://…"): nothing to add */
    readonly complete = false,
  ) {
    super(message);
  }

  /**
   * The message, its status and code, and every field at fault on a line of its own: as the API says
   * it (`path: message`), or as `line` words it (the CLI: amounts in reais, src/cli/field-errors.ts).
   */
  describe(line: (detail: ErrorDetail) => string = (d) => `${d.path}: ${d.message}`): string {
    const suffix = this.complete ? '' : this.code === `http_${this.status}` ? ` (HTTP ${this.status})` : ` (HTTP ${this.status} ${this.code})`;
    return `${this.message}${suffix}${this.details.map((d) => `\n  ${line(d)}`).join('')}`;
  }
}

/** The server could not be reached, or did not answer in time, or its certificate could not be trusted. */
export class NetworkError extends Error {
  constructor(
    message: string,
    /** whether trying again may help (not for a certificate, which the next attempt meets again) */
    readonly retryable = true,
  ) {
    super(message);
  }
}

/**
 * The server answered with a redirect, which pinvoice does not follow: the token would go with it.
 * The message names where it points and the --base-url to use.
 */
export class RedirectError extends Error {}

/** The server answered 2xx with something that is not JSON (a page, a fragment): there is no record to read. */
export class UnexpectedResponseError extends Error {}
