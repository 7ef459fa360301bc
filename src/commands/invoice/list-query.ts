// `invoice list`'s flags as the listing's query (contract: GET /api/v2/invoices without id), each
// checked here so that a mistake is named by its flag, in reais and the user's own dates.
import { usageError } from '../../cli/errors.js';
import { when } from '../../cli/when.js';
import { documentType, normalizeDocument } from '../../domain/document.js';
import { METHODS, STATUSES } from '../../domain/status.js';
import { amountFlag } from './amount-flag.js';

export interface ListFlags {
  status?: string | undefined;
  method?: string | undefined;
  payer?: string | undefined;
  externalId?: string | undefined;
  since?: string | undefined;
  until?: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
}

function oneOf(flag: string, value: string, allowed: readonly string[]): string {
  const values = value.split(',').map((v) => v.trim()).filter(Boolean);
  const wrong = values.filter((v) => !allowed.includes(v));
  if (values.length === 0 || wrong.length > 0) throw usageError(`${flag}: "${wrong.join(',') || value}" is not one of ${allowed.join(', ')} (several: comma-separated)`);
  return values.join(',');
}

/** --payer: an e-mail, or a CPF/CNPJ (digits or formatted). */
function payer(value: string): Record<string, string> {
  const text = value.trim();
  if (text.includes('@')) return { payer_email: text };
  if (documentType(text) !== null) return { payer_document: normalizeDocument(text) };
  throw usageError(`--payer: "${value}" is neither an e-mail nor a valid CPF or CNPJ (its check digits included)`);
}

export function listQuery(flags: ListFlags): Record<string, string> {
  const query: Record<string, string> = {};
  if (flags.status !== undefined) query.status = oneOf('--status', flags.status, STATUSES);
  if (flags.method !== undefined) query.method = oneOf('--method', flags.method, METHODS);
  if (flags.payer !== undefined) Object.assign(query, payer(flags.payer));
  if (flags.externalId !== undefined) query.external_id = flags.externalId;
  if (flags.since !== undefined) query.created_from = when('--since', flags.since);
  if (flags.until !== undefined) query.created_to = when('--until', flags.until);
  if (flags.min !== undefined) query.amount_min = String(amountFlag(flags.min, '--min'));
  if (flags.max !== undefined) query.amount_max = String(amountFlag(flags.max, '--max'));
  if (query.created_from && query.created_to && query.created_from >= query.created_to) throw usageError('--since must be before --until');
  if (query.amount_min && query.amount_max && Number(query.amount_min) > Number(query.amount_max)) throw usageError('--min must not be more than --max');
  return query;
}
