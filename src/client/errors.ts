// Typed client failures. Kept free of heavy imports so the entry point can map them to exit codes.
import type { ErrorDetail } from '../api/schemas.js';

/** The server answered with an error status. */
export class ApiRequestError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }
}

/** The server could not be reached, or did not answer in time. */
export class NetworkError extends Error {}

/** The server answered 2xx with a body that does not fit the API. */
export class UnexpectedResponseError extends Error {}
