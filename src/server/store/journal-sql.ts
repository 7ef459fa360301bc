// The journal's SQL both engines speak: the columns an entry is kept in, and a list's filters as a
// WHERE clause. Each engine writes its own placeholders ($1 or ?) through `param`.
import type { JournalFilter, JournalRow } from './port.js';
import type { Row } from './rows.js';

export const JOURNAL_COLUMNS = ['company_id', 'at', 'sandbox_at', 'direction', 'method', 'path', 'status', 'invoice_id', 'request_body', 'response_body', 'detail'] as const;

/** `*` stands for any run of characters; everything else is itself (SQLite's GLOB and PostgreSQL's LIKE differ in what else is special). */
export const globToLike = (glob: string): string => glob.replace(/[\\%_]/g, (c) => `\\${c}`).replace(/\*/g, '%');
export const globToGlob = (glob: string): string => glob.replace(/[[\]?]/g, (c) => `[${c}]`);

/** The filter's conditions after `company_id = <p> AND id > <p>`; `pathCondition` is the engine's pattern test; `table` qualifies the columns (`e.`). */
export function journalWhere(filter: JournalFilter, param: (value: unknown) => string, pathCondition: (pattern: string) => string, table = ''): string {
  const parts: string[] = [];
  if (filter.direction) parts.push(`${table}direction = ${param(filter.direction)}`);
  if (filter.method) parts.push(`${table}method = ${param(filter.method)}`);
  if (filter.path !== undefined) parts.push(filter.path.includes('*') ? pathCondition(filter.path) : `${table}path = ${param(filter.path)}`);
  if (filter.status) parts.push(`${table}status BETWEEN ${param(filter.status[0])} AND ${param(filter.status[1])}`);
  if (filter.invoiceId !== undefined) parts.push(`${table}invoice_id = ${param(filter.invoiceId)}`);
  return parts.map((part) => ` AND ${part}`).join('');
}

const text = (value: unknown): string | null => (value === null || value === undefined ? null : Buffer.isBuffer(value) ? value.toString('utf8') : String(value));

export function toJournalRow(row: Row): JournalRow {
  return {
    id: Number(row.id),
    company_id: Number(row.company_id),
    at: Number(row.at),
    sandbox_at: Number(row.sandbox_at),
    direction: row.direction === 'out' ? 'out' : 'in',
    method: String(row.method),
    path: String(row.path),
    status: row.status === null ? null : Number(row.status),
    invoice_id: row.invoice_id === null ? null : Number(row.invoice_id),
    request_body: text(row.request_body),
    response_body: text(row.response_body),
    detail: String(row.detail),
  };
}
