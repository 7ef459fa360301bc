// Errors the API answers with: one class, carrying the contract's error body.
import type { FastifyError } from 'fastify';
import type { ErrorCode, ErrorDetail } from '../api/schemas.js';
import { bytes, type Limits } from './limits.js';
import { FAULT_STATUS, type StoreFault } from './store/faults.js';

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

export const forbidden = (operation: string) =>
  new ApiError(403, 'forbidden', `This token is read-only: ${operation} is not open to it (it may look up charges and list their events).`);

export const unauthorized = (message: string, invalidToken: boolean) =>
  new ApiError(401, 'unauthorized', message, undefined, {
    'WWW-Authenticate': invalidToken ? 'Bearer realm="pinvoice", error="invalid_token"' : 'Bearer realm="pinvoice"',
  });

/** Fastify's own errors (body parsing, limits) mapped to the contract's error codes. */
export function frameworkError(error: FastifyError, limits: Limits): ApiError | undefined {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError(413, 'payload_too_large', `The request body is larger than ${bytes(limits.bodyBytes)}.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError(415, 'unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError(400, 'invalid_json', 'The body is not valid JSON (or holds a forbidden __proto__ or constructor key).');
  }
  if (error instanceof SyntaxError || (error.statusCode === 400 && /JSON|prototype|constructor/i.test(error.message))) {
    return new ApiError(400, 'invalid_json', 'The body is not valid JSON.');
  }
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    return new ApiError(400, 'bad_request', error.message);
  }
  return undefined;
}

/** The store at fault (unreachable, full, damaged, being checked): 503 or 507, with Retry-After when waiting helps. */
export const storeFaultError = (fault: StoreFault) =>
  new ApiError(FAULT_STATUS[fault.code], fault.code, fault.message, undefined, fault.retryAfter === undefined ? {} : { 'Retry-After': String(fault.retryAfter) });
