// Fields of a create payload that the API does not know: refused before sending (the gateway would
// ignore them, so `postback` or `payer.emial` would be lost without a word), each named with what was
// probably meant; `--allow-unknown-fields` sends them anyway. And the gateway's own word on what it
// ignored (Pinvoice-Ignored-Fields), shown as a warning.
import { CreateInvoiceRequest, type ErrorDetail } from '../../api/schemas.js';
import { findUnknownFields, unknownFieldDetails, withUnknownFields } from '../../api/unknown-fields.js';
import { usageError } from '../../cli/errors.js';
import type { Output } from '../../cli/output.js';

export const ALLOW_FLAG = '--allow-unknown-fields';

/** The unknown fields of a create payload, as details (path, and a did-you-mean where one is close). */
export const unknownCreateFields = (payload: unknown): ErrorDetail[] => unknownFieldDetails(findUnknownFields(CreateInvoiceRequest, payload));

/** Refuses a payload with unknown fields (exit 2), naming each; `source` says where it came from (`--file charge.json`). */
export function refuseUnknownFields(payload: unknown, source: string): void {
  const details = unknownCreateFields(payload);
  if (details.length === 0) return;
  const lines = details.map((detail) => `  ${detail.path}: ${detail.message}`).join('\n');
  const some = details.length === 1 ? 'a field' : 'fields';
  throw usageError(`${source} has ${some} the API does not know, which the gateway would ignore:\n${lines}\n`
    + `correct ${details.length === 1 ? 'its name' : 'their names'}, or send ${details.length === 1 ? 'it' : 'them'} anyway with ${ALLOW_FLAG}`);
}

/** What is sent: the checked request, with its unknown fields put back when they are allowed (the schema drops them). */
export const sendable = <T>(checked: T, raw: unknown, allow: boolean | undefined): T => (allow ? withUnknownFields(CreateInvoiceRequest, checked, raw) : checked);

/** The warning for the fields the gateway said it ignored; nothing when it said nothing (production never does). */
export function warnIgnoredFields(out: Output, fields: readonly string[]): void {
  if (fields.length > 0) out.message(`pinvoice: the gateway ignored fields it does not know: ${fields.join(', ')}`);
}
