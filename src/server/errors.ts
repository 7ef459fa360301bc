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

/** The message names the first problem: integrations written for production show `message` alone. */
export function validationFailed(details: ErrorDetail[]): ApiError {
  const [first] = details;
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length === 2 ? '' : 's'}; see details)` : '';
  const subject = first?.path === '(body)' ? 'The body' : `Field ${first?.path}`;
  const message = first ? `${subject} ${first.message}${more}.` : 'The request is not valid.';
  return new ApiError(422, 'validation_failed', message, details);
}

export const unauthorized = (message: string, invalidToken: boolean) =>
  new ApiError(401, 'unauthorized', message, undefined, {
    'WWW-Authenticate': invalidToken ? 'Bearer realm="pinvoice", error="invalid_token"' : 'Bearer realm="pinvoice"',
  });
