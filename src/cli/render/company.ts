// The support view of a company: who it is, where its money goes, what it holds, what is blocked; from
// the tolerant view of Company Infos (src/client/read/company.ts), anything unforeseen shown at the end.
import type { CompanyView } from '../../client/read/company.js';
import type { Palette } from './colour.js';
import { amount, dateTime, document, orDash, zipCode } from './format.js';
import { wrapText } from './layout.js';
import { safeData } from './safe-text.js';
import { keyValueTable, right, section, type Row } from './table.js';
import { renderOthers } from './transaction.js';
import { terminalWidth } from './width.js';

export interface CompanyRenderOptions {
  palette: Palette;
  /** the columns every table fits in; the terminal's by default */
  width?: number | undefined;
}

const known = (...parts: (string | undefined)[]) => parts.filter((part): part is string => part !== undefined && part !== '');

function addressLine(e: CompanyView): string {
  const zip = e.zip === undefined ? undefined : `CEP ${zipCode(e.zip)}`;
  return orDash(known(known(e.street, e.number).join(', '), e.province, known(e.city, e.state).join('/'), zip).join(' - '));
}

function bankLine(e: CompanyView): string {
  const account = known(e.bankAccount, e.bankDigit).join('-');
  const parts = known(e.bankName, e.bankAgency && `agency ${e.bankAgency}`, account && `account ${account}`, e.bankType);
  return orDash(parts.join(', '));
}

function identityRows(e: CompanyView): Row[] {
  return [
    ['id', orDash(e.id)],
    ['fantasy name', orDash(e.fantasyName)],
    ['corporate reason', orDash(e.corporateReason)],
    ['CNPJ', e.cnpj === undefined ? '—' : document(e.cnpj)],
    ['type', orDash(e.type)],
    ['website', orDash(e.website)],
    ['address', addressLine(e)],
    ['bank', bankLine(e)],
    ['created', dateTime(e.createdAt)],
    ['updated', dateTime(e.updatedAt)],
  ];
}

function balanceRows(e: CompanyView, palette: Palette): Row[] {
  const { pix, card, boleto } = e.balances;
  const all = [pix, card, boleto];
  const total = all.every((value) => typeof value === 'number') ? (all as number[]).reduce((a, b) => a + b, 0) : undefined;
  return [
    ['pix', right(amount(pix))],
    ['card', right(amount(card))],
    ['boleto', right(amount(boleto))],
    ['total', right(palette.bold(amount(total)))],
    ['invoiced, all time', right(amount(e.invoicedTotal))],
    ['invoiced, this month', right(amount(e.invoicedThisMonth))],
  ];
}

export function blockedLine(e: Pick<CompanyView, 'blocked'>, palette: Palette, width = terminalWidth()): string {
  const blocked = e.blocked;
  const text = blocked === undefined ? 'blocked: —' : blocked.length === 0 ? `blocked: ${palette.ok('none')}` : `blocked: ${palette.bad(blocked.join(', '))}`;
  return wrapText(text, width);
}

/** The support view of a company; every string of the record is made safe for a terminal first. */
export function renderCompany(record: CompanyView, { palette, width = terminalWidth() }: CompanyRenderOptions): string {
  const e = safeData({ ...record, raw: undefined });
  return [
    section('Company', keyValueTable(identityRows(e), palette, width), palette),
    section('Balances', keyValueTable(balanceRows(e, palette), palette, width), palette),
    blockedLine(e, palette, width),
    renderOthers(e.others, palette, width),
  ].filter((text): text is string => text !== null).join('\n\n');
}
