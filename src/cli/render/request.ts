// The summary a merchant confirms before a charge is created: every field of the request as it will be
// sent. It is drawn from the request itself: each presenter takes the fields it knows out of a copy
// (amounts in reais, a masked card, the address on one line), and whatever is left is listed under its
// JSON path, so a field this version does not present (sent with --allow-unknown-fields, or a 3-D
// Secure value) is still shown, never dropped from view.
import type { CreateInvoiceRequest } from '../../api/schemas.js';
import { formatDocument } from '../../domain/document.js';
import { formatBRL, isCents } from '../../domain/money.js';
import type { Palette } from './colour.js';
import { zipCode } from './format.js';
import { safeData } from './safe-text.js';
import { keyValueTable, type Row } from './table.js';
import { methodLabel } from './transaction.js';
import { terminalWidth } from './width.js';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Takes a text field out of `from`; null (the API's "none") is taken too, as nothing. Other types stay, for the generic rows. */
function text(from: Json, key: string): string | undefined {
  const value = from[key];
  if (value === null || typeof value === 'string') delete from[key];
  return typeof value === 'string' ? value : undefined;
}

/** Takes an amount in cents out of `from`, as reais; anything else stays for the generic rows. */
function money(from: Json, key: string): string | undefined {
  const value = from[key];
  if (!isCents(value)) return undefined;
  delete from[key];
  return formatBRL(value);
}

/** Takes a whole number out of `from`; anything else stays, for the generic rows. */
function whole(from: Json, key: string): number | undefined {
  const value = from[key];
  if (!Number.isSafeInteger(value)) return undefined;
  delete from[key];
  return value as number;
}

/** Drops an object (or an array of them) once every field in it has been presented. */
function dropIfEmpty(from: Json, key: string): void {
  const value = from[key];
  const empty = (v: unknown) => isObject(v) && Object.keys(v).length === 0;
  if (empty(value) || (Array.isArray(value) && value.length > 0 && value.every(empty))) delete from[key];
}

const row = (rows: Row[], label: string, value: string | undefined) => void (value !== undefined && rows.push([label, value]));

/** "2 × Camiseta @ R$ 9,95 = R$ 19,90", per item; an item of another shape is left for the generic rows. */
function itemRows(rest: Json): Row[] {
  if (!Array.isArray(rest.items)) return [];
  const rows: Row[] = [];
  for (const item of rest.items) {
    if (!isObject(item) || typeof item.name !== 'string' || !Number.isSafeInteger(item.quantity) || !isCents(item.unit_price)) continue;
    const line = `${item.quantity as number} × ${item.name} @ ${formatBRL(item.unit_price)} = ${formatBRL((item.quantity as number) * item.unit_price)}`;
    for (const key of ['name', 'quantity', 'unit_price']) delete item[key];
    const description = text(item, 'description');
    rows.push(['item', description ? `${line} (${description})` : line]);
  }
  dropIfEmpty(rest, 'items');
  return rows;
}

const ADDRESS_FIELDS = ['address_line', 'address_number', 'address_complement', 'address_neighborhood', 'address_city', 'address_state', 'address_zip'];

/** "Avenida Paulista, 1000, sala 4 · Bela Vista · São Paulo/SP · CEP 01310-100" */
function address(payer: Json): string | undefined {
  const [line, number, complement, neighborhood, city, state, zip] = ADDRESS_FIELDS.map((key) => text(payer, key));
  const parts = [
    [line, number, complement].filter(Boolean).join(', '),
    neighborhood,
    [city, state].filter(Boolean).join('/'),
    zip && `CEP ${zipCode(zip)}`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : undefined;
}

function payerRows(rest: Json): Row[] {
  const payer = rest.payer;
  if (!isObject(payer)) return [];
  const rows: Row[] = [];
  row(rows, 'payer', text(payer, 'name'));
  const document = text(payer, 'cpf_cnpj');
  row(rows, 'CPF/CNPJ', document && formatDocument(document));
  row(rows, 'e-mail', text(payer, 'email'));
  row(rows, 'phone', text(payer, 'phone'));
  row(rows, 'address', address(payer));
  dropIfEmpty(rest, 'payer');
  return rows;
}

function cardRows(rest: Json, method: unknown): Row[] {
  const card = isObject(rest.card) ? rest.card : {};
  const rows: Row[] = [];
  const number = text(card, 'number');
  row(rows, 'card', number && `•••• ${number.replace(/\D/g, '').slice(-4)}`);
  row(rows, 'card token', text(card, 'token'));
  row(rows, 'cardholder', [text(card, 'first_name'), text(card, 'last_name')].filter(Boolean).join(' ') || undefined);
  const [month, year] = [text(card, 'month'), text(card, 'year')];
  row(rows, 'expiry', month || year ? `${month?.padStart(2, '0') ?? '?'}/${year ?? '?'}` : undefined);
  // never shown, not even in part: that it was given is all the merchant needs to see
  row(rows, 'security code', text(card, 'security_code') === undefined ? undefined : '•••');
  const installments = whole(card, 'installment');
  if (installments !== undefined) rows.push(['installments', `${installments}x`]);
  else if (method === 'credit_card') rows.push(['installments', "1x (not sent: the gateway's default)"]);
  dropIfEmpty(rest, 'card');
  return rows;
}

function otherRows(rest: Json): Row[] {
  const rows: Row[] = [];
  const postback = text(rest, 'postback_url');
  row(rows, 'postback URL', postback === '' ? 'none ("": no postbacks)' : postback);
  row(rows, 'external id', text(rest, 'external_id'));
  if (isObject(rest.metadata) && Object.values(rest.metadata).every((v) => typeof v === 'string')) {
    for (const [key, value] of Object.entries(rest.metadata)) rows.push(['metadata', `${key} = ${value as string}`]);
    delete rest.metadata;
  }
  row(rows, 'payer IP', text(rest, 'ip_payer'));
  const physical = rest.product_fisical;
  if (typeof physical === 'boolean') delete rest.product_fisical;
  row(rows, 'physical goods', typeof physical === 'boolean' ? (physical ? 'yes' : 'no') : text(rest, 'product_fisical'));
  row(rows, 'currency', text(rest, 'currency'));
  row(rows, 'country', text(rest, 'country'));
  return rows;
}

/** A value no presenter took: one row per leaf, labelled with its JSON path, given as JSON unless it is text. */
function leftoverRows(value: unknown, path: string): Row[] {
  if (value === undefined) return []; // left out of the JSON that is sent
  if (isObject(value) && Object.keys(value).length > 0) return Object.entries(value).flatMap(([key, item]) => leftoverRows(item, `${path}.${key}`));
  if (Array.isArray(value) && value.length > 0) return value.flatMap((item, i) => leftoverRows(item, `${path}[${i}]`));
  return [[path, typeof value === 'string' ? value : JSON.stringify(value)]];
}

/** The rows of the summary, in the order a merchant checks them. */
export function requestRows(request: unknown, palette: Palette): Row[] {
  const rest: Json = isObject(request) ? structuredClone(request) : {};
  const rows: Row[] = [];
  const method = rest.method;
  row(rows, 'method', typeof method === 'string' ? methodLabel(text(rest, 'method')) : undefined);
  const total = money(rest, 'total_price_cents');
  row(rows, 'amount', total && palette.bold(total));
  return [...rows, ...itemRows(rest), ...payerRows(rest), ...cardRows(rest, method), ...otherRows(rest), ...Object.entries(rest).flatMap(([key, value]) => leftoverRows(value, key))];
}

/** What was typed (or read from a file) is data like any other: made safe before it is shown. */
export function renderRequestSummary(typed: CreateInvoiceRequest, palette: Palette, width = terminalWidth(process.stderr)): string {
  return keyValueTable(requestRows(safeData(typed), palette), palette, width);
}
