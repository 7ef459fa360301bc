// Errors the API answers with: one class, carrying the contract's error body.
import type { ErrorCode, ErrorDetail } from '../api/schemas.js';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body() {
    return { error: this.code, message: this.message, ...(this.details && { details: this.details }) };
  }
}

export const notFound = (what = 'transaction') => new ApiError(404, 'not_found', `No ${what} with this id for this company.`);

export const validationFailed = (details: ErrorDetail[]) =>
  new ApiError(422, 'validation_failed', `The request has ${details.length} problem${details.length === 1 ? '' : 's'}; see details.`, details);

export const unauthorized = (message: string, invalidToken: boolean) =>
  new ApiError(401, 'unauthorized', message, undefined, {
    'WWW-Authenticate': invalidToken ? 'Bearer realm="pinvoice", error="invalid_token"' : 'Bearer realm="pinvoice"',
  });
