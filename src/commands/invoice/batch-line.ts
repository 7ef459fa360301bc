// One line of `invoice create --batch`: its Idempotency-Key, the create request it holds (checked as a
// single create checks it, so that a bad line is never sent), and its result line.
import type { CreateInvoiceRequest, ErrorDetail, Status } from '../../api/schemas.js';
import { validateCreateRequest } from '../../api/validate.js';
import type { InputLine } from '../../base/read-lines.js';
import { ApiRequestError, NetworkError, RedirectError, UnexpectedResponseError } from '../../client/errors.js';
import type { TransactionView } from '../../client/read/transaction.js';
import { sendable, unknownCreateFields } from './unknown-fields.js';

export type FailedLine = { line: number; ok: false; error: string; message: string; details: ErrorDetail[] };
/**
 * A created line: what the gateway said of the charge, null where it said nothing (production answers no
 * integer id); with `ignored_fields` when the gateway named fields of the line it ignored (--allow-unknown-fields).
 */
export type CreatedLine = { line: number; ok: true; id: number | string | null; secureId: string | null; status: Status | string | null; ignored_fields?: string[] };
export type BatchResult = CreatedLine | FailedLine;

export function createdLine(line: number, view: Pick<TransactionView, 'id' | 'secureId' | 'status'>, ignoredFields: readonly string[] = []): CreatedLine {
  const id = view.id === undefined ? null : /^\d{1,15}$/.test(view.id) ? Number(view.id) : view.id;
  return { line, ok: true, id, secureId: view.secureId ?? null, status: view.status ?? null, ...(ignoredFields.length > 0 && { ignored_fields: [...ignoredFields] }) };
}

/**
 * The line's Idempotency-Key: the same bytes give the same keys, so a second run of a file answers the
 * lines the first one created (the server replays them) and creates only the rest.
 */
export const batchKey = (sha256: string, line: number) => `pinvoice-batch-${sha256.slice(0, 32)}-${line}`;

export const failure = (line: number, error: string, message: string, details: ErrorDetail[] = []): FailedLine =>
  ({ line, ok: false, error, message, details });

/** "payer.cpf_cnpj: is not a valid CPF (and 1 more problem)": the first problem leads, as the server's message does. */
function validationMessage(details: ErrorDetail[]): string {
  const [first] = details;
  const more = details.length > 1 ? ` (and ${details.length - 1} more problem${details.length === 2 ? '' : 's'}; see details)` : '';
  return first ? `${first.path}: ${first.message}${more}` : 'not a valid create request';
}

/**
 * The request a line holds, or the result of a line that is not sent: not UTF-8, not JSON, holding fields
 * the API does not know (unless they are allowed: then they are sent), or not a valid create request.
 */
export function readLine(input: InputLine, { now = new Date(), allowUnknownFields = false } = {}): { request: CreateInvoiceRequest } | { failed: BatchResult } {
  if ('problem' in input) return { failed: failure(input.number, 'invalid_json', `not JSON: ${input.problem}`) };
  let value: unknown;
  try {
    value = JSON.parse(input.text);
  } catch (error) {
    return { failed: failure(input.number, 'invalid_json', `not JSON: ${(error as Error).message}`) };
  }
  const unknown = allowUnknownFields ? [] : unknownCreateFields(value);
  if (unknown.length > 0) return { failed: failure(input.number, 'unknown_fields', validationMessage(unknown), unknown) };
  const checked = validateCreateRequest(value, now);
  if (!checked.ok) return { failed: failure(input.number, 'validation_failed', validationMessage(checked.details), checked.details) };
  return { request: sendable(checked.value, value, allowUnknownFields) };
}

/**
 * A line the server (or the way to it) failed: the server's error code and details, `network` after
 * the retries, or `unexpected_response` (a 2xx answer that does not fit the API). Anything else is not a line's failure.
 */
export function failedLine(line: number, error: unknown): FailedLine | undefined {
  if (error instanceof ApiRequestError) return failure(line, error.code, error.message, error.details);
  if (error instanceof NetworkError || error instanceof RedirectError) return failure(line, 'network', error.message);
  if (error instanceof UnexpectedResponseError) return failure(line, 'unexpected_response', error.message);
  return undefined;
}
