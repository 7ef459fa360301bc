// The support view of a company: who it is, where its money goes, what it holds, what is blocked.
import type { Enterprise } from '../../api/schemas.js';
import type { Palette } from './colour.js';
import { dateTime, document, money, orDash, zipCode } from './format.js';
import { safeData } from './safe-text.js';
import { wrapText } from './layout.js';
import { keyValueTable, right, section, type Row } from './table.js';
import { terminalWidth } from './width.js';

export interface CompanyRenderOptions {
  palette: Palette;
  /** the columns every table fits in; the terminal's by default */
  width?: number | undefined;
}

const BLOCK_FLAGS = [
  ['blocked_pix', 'pix'],
  ['blocked_card', 'card'],
  ['blocked_bank_slip', 'bank slip'],
  ['blocked_processing', 'processing'],
  ['blocked_sake', 'sake (withdrawals)'],
  ['blocked_system', 'system'],
] as const satisfies readonly (readonly [keyof Enterprise, string])[];

function addressLine(e: Enterprise): string {
  const street = [e.address, e.address_number].filter((part) => part !== '').join(', ');
  const place = [e.address_city, e.address_state].filter((part) => part !== '').join('/');
  const zip = e.address_postal_code === '' ? '' : `CEP ${zipCode(e.address_postal_code)}`;
  return orDash([street, e.address_province, place, zip].filter((part) => part !== '').join(' - '));
}

function bankLine(e: Enterprise): string {
  const account = [e.bank_account, e.bank_digit].filter((part) => part !== '').join('-');
  const parts = [e.bank_name, e.bank_agency && `agency ${e.bank_agency}`, account && `account ${account}`, e.bank_type];
  return orDash(parts.filter((part) => part !== '').join(', '));
}

function identityRows(e: Enterprise): Row[] {
  return [
    ['id', String(e.id)],
    ['fantasy name', orDash(e.fantasy_name)],
    ['corporate reason', orDash(e.corporate_reason)],
    ['CNPJ', document(e.cnpj)],
    ['type', orDash(e.company_type)],
    ['website', orDash(e.url_website)],
    ['address', addressLine(e)],
    ['bank', bankLine(e)],
    ['created', dateTime(e.create_at)],
    ['updated', dateTime(e.update_at)],
  ];
}

function balanceRows(e: Enterprise, palette: Palette): Row[] {
  const total = e.balance_pix + e.balance_card + e.balance_bank_slip;
  return [
    ['pix', right(money(e.balance_pix))],
    ['card', right(money(e.balance_card))],
    ['boleto', right(money(e.balance_bank_slip))],
    ['total', right(palette.bold(money(total)))],
    ['invoiced, all time', right(money(e.amount_invoice_total))],
    ['invoiced, this month', right(money(e.amount_invoices_competicion))],
  ];
}

export function blockedLine(e: Enterprise, palette: Palette, width = terminalWidth()): string {
  const blocked = BLOCK_FLAGS.filter(([field]) => e[field]).map(([, label]) => label);
  return wrapText(blocked.length === 0 ? `blocked: ${palette.ok('none')}` : `blocked: ${palette.bad(blocked.join(', '))}`, width);
}

/** The support view of a company; every string of the record is made safe for a terminal first. */
export function renderCompany(record: Enterprise, { palette, width = terminalWidth() }: CompanyRenderOptions): string {
  const e = safeData(record);
  return [
    section('Company', keyValueTable(identityRows(e), palette, width), palette),
    section('Balances', keyValueTable(balanceRows(e, palette), palette, width), palette),
    blockedLine(e, palette, width),
  ].join('\n\n');
}
