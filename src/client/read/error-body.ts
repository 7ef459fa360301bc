// An error answer of any shape a gateway may use, as one ApiRequestError: ours ({error, message,
// details}), Laravel's validation answer ({message, errors: {"payer.cpf_cnpj": ["…"]}}), {message},
// {error: "…"}, {error: {message, code}}, or a body that is not JSON at all (an HTML page from a proxy),
// which is never shown: only its status and where it came from.
import type { ErrorDetail } from '../../api/schemas.js';
import { ApiRequestError } from '../errors.js';
import { at, isRecord, list, text } from './values.js';

/** Long enough for any sentence a gateway writes; a page pasted into a message is cut. */
const MAX_MESSAGE = 500;
const clip = (value: string) => (value.length > MAX_MESSAGE ? `${value.slice(0, MAX_MESSAGE)}…` : value);
/** A machine code (snake_case or kebab-case, no spaces), as opposed to a sentence. */
const isCode = (value: string) => /^[a-z][a-z0-9_.-]{1,63}$/i.test(value);

function details(body: Record<string, unknown>): ErrorDetail[] {
  const ours = list(body.details).flatMap((entry) => {
    const path = text(at(entry, 'path')) ?? text(at(entry, 'field'));
    const message = text(at(entry, 'message'));
    return message === undefined ? [] : [{ path: path ?? '(body)', message: clip(message) }];
  });
  // Laravel: every field with every message, in the order sent
  const errors = isRecord(body.errors) ? body.errors : isRecord(at(body, 'error.errors')) ? (at(body, 'error.errors') as Record<string, unknown>) : {};
  const laravel = Object.entries(errors).flatMap(([path, messages]) =>
    (Array.isArray(messages) ? messages : [messages]).map((message) => ({ path, message: clip(text(message) ?? JSON.stringify(message)) })));
  return [...ours, ...laravel];
}

export function toApiError(status: number, statusText: string, body: string, url: string): ApiRequestError {
  const where = `HTTP ${status}${statusText ? ` ${statusText}` : ''} from ${new URL(url).origin}`;
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    value = undefined;
  }
  if (!isRecord(value)) return new ApiRequestError(status, `http_${status}`, where, [], true);
  const error = value.error;
  const message = text(value.message) ?? text(at(error, 'message')) ?? (typeof error === 'string' && !isCode(error) ? error : undefined);
  const code = (typeof error === 'string' && isCode(error) ? error : undefined) ?? text(at(error, 'code')) ?? text(value.code);
  const fields = details(value);
  const known = code !== undefined && isCode(code) ? code : `http_${status}`;
  // no sentence: the status and origin say what happened, with the code when there is one
  if (message === undefined) return new ApiRequestError(status, known, code === undefined ? where : `${where}: ${clip(code)}`, fields, true);
  return new ApiRequestError(status, known, clip(message), fields);
}

/**
 * Whether an error body holds a message this reader can show; without one it can say only the status
 * and the origin (`HTTP 500 from …`). For the proxy's `error-shape` finding.
 */
export const errorBodyHasMessage = (status: number, body: string): boolean => !toApiError(status, '', body, 'http://gateway.invalid').complete;
