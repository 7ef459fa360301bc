// The client's zod side, loaded only when an answer does not fit its schema's shape (read-shape.ts) or
// is an error: parses with the shared schemas, names the field that does not fit, reads error details.
import { z } from 'zod';
import { EventList, WebhookEvent, WebhookSecret } from '../api/postbacks.js';
import { ChaosRule, SandboxClock, ScenarioList } from '../api/sandbox.js';
import { Enterprise, ErrorBody, PublicInvoice, Transaction } from '../api/schemas.js';
import { jsonPath } from '../api/validate.js';
import { ApiRequestError, UnexpectedResponseError } from './errors.js';

/** Create's answer as integrations read it: `{data: …}`, the record or at least the charge's id. */
const CreatedEnvelope = z.object({ data: z.looseObject({ invoice_id: z.unknown().optional(), id: z.unknown().optional() }) });

/** The response schemas, by the name the client asks for them with. */
export const SCHEMAS = { Transaction, Enterprise, EventList, WebhookEvent, PublicInvoice, WebhookSecret, CreatedEnvelope, SandboxClock, ChaosRule, ScenarioList };
export type SchemaName = keyof typeof SCHEMAS;
export type Parsed<K extends SchemaName> = z.infer<(typeof SCHEMAS)[K]>;

/** Parses with the schema; extra fields are tolerated (zod strips them), missing or wrong ones are named. */
export function fit<K extends SchemaName>(name: K, value: unknown, what: string): Parsed<K> {
  const result = SCHEMAS[name].safeParse(value);
  if (result.success) return result.data as Parsed<K>;
  const issue = result.error.issues[0];
  const field = issue ? jsonPath(issue.path) || '(body)' : '(body)';
  const message = issue?.message.replace(/^Invalid input: /, '') ?? 'does not fit';
  throw new UnexpectedResponseError(`unexpected response to ${what}: field ${field}: ${message}`);
}

export function toApiError(status: number, text: string): ApiRequestError {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  const parsed = ErrorBody.partial().loose().safeParse(body);
  const loose = (body ?? {}) as { message?: unknown; error?: unknown };
  const message = typeof loose.message === 'string' ? loose.message : typeof loose.error === 'string' ? loose.error : `HTTP ${status}`;
  const code = typeof loose.error === 'string' ? loose.error : `http_${status}`;
  return new ApiRequestError(status, code, message, parsed.success ? (parsed.data.details ?? []) : []);
}
