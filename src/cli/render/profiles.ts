// The table of `pinvoice profile list`: one row a profile, the current one starred, tokens already masked.
import type { CompanyRef } from '../config.js';
import { formatDocument } from '../../domain/document.js';
import type { Palette } from './colour.js';
import { safeData } from './safe-text.js';
import { gridTable, keep } from './table.js';
import { terminalWidth } from './width.js';

export interface ProfileRow {
  name: string;
  current: boolean;
  baseUrl: string;
  /** masked (domain/secrets); null when the profile holds none */
  token: string | null;
  /** whose token it is, as Company Infos answered at login; null when the gateway did not say */
  company: CompanyRef | null;
}

/** Names and URLs come from the config file, which anyone may have edited: made safe like data. */
export function renderProfiles(rows: readonly ProfileRow[], palette: Palette, width = terminalWidth()): string {
  const cells = safeData(rows).map((row) => [
    row.current ? '*' : '',
    row.name,
    row.company === null ? '—' : `${row.company.name}\n${formatDocument(row.company.cnpj)}`,
    row.baseUrl,
    row.token ?? '(none)',
  ]);
  return gridTable([keep(''), 'profile', 'company', 'base URL', keep('token')], cells, palette, width);
}
