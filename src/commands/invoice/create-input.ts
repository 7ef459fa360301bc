// The create request from --file (or stdin), overridden field by field by the flags.
import { MAX_INSTALLMENTS, type RequestItem } from '../../api/schemas.js';
import { usageError } from '../../cli/errors.js';
import { checkHttpUrl } from '../../cli/url-flag.js';
import { amountRangeProblem, formatBRL, MAX_CENTS } from '../../domain/money.js';
import { amountFlag } from './amount-flag.js';
import type { CreateFlags } from './index.js';

type Json = Record<string, unknown>;

/** Where a missing field can be given on the command line. */
export const FLAG_FOR_PATH: Record<string, string> = {
  method: '--method',
  total_price_cents: '--amount or --item',
  items: '--item',
  'payer.name': '--payer-name',
  'payer.email': '--payer-email',
  'payer.cpf_cnpj': '--payer-document',
  'payer.address_zip': '--payer-zip',
  'payer.address_line': '--payer-address',
  'payer.address_number': '--payer-number',
  'payer.address_city': '--payer-city',
  'payer.address_state': '--payer-state',
  card: '--card-token, or "card" in --file',
};

/** "Camiseta azul:2:19,90" -> {name, quantity 2, unit_price 1990}; the name may hold colons. */
export function parseItem(text: string): RequestItem {
  const parts = text.split(':');
  if (parts.length < 3) throw usageError(`--item "${text}" must be "name:quantity:unit_price", e.g. "Camiseta:2:19,90"`);
  const price = parts.pop() ?? '';
  const quantity = parts.pop() ?? '';
  const name = parts.join(':').trim();
  if (!name) throw usageError(`--item "${text}": the name is empty`);
  if (!/^\d+$/.test(quantity.trim()) || Number(quantity) < 1) throw usageError(`--item "${text}": quantity must be a whole number ≥ 1`);
  const unitPrice = amountFlag(price, `--item "${text}" unit price`);
  if (Number(quantity) * unitPrice > MAX_CENTS) {
    throw usageError(`--item "${text}": ${quantity.trim()} × ${formatBRL(unitPrice)} is more than the ${formatBRL(MAX_CENTS)} one charge can be`);
  }
  return { name, quantity: Number(quantity), unit_price: unitPrice };
}

/** ["order=1042", "channel=loja"] -> {order: "1042", channel: "loja"}, over the file's metadata; the value may hold "=". */
export function parseMetadata(pairs: readonly string[], base: unknown): Json {
  const out: Json = typeof base === 'object' && base !== null && !Array.isArray(base) ? { ...(base as Json) } : {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at <= 0) throw usageError(`--metadata "${pair}" must be "key=value", e.g. --metadata order=1042`);
    out[pair.slice(0, at).trim()] = pair.slice(at + 1);
  }
  return out;
}

const set = (target: Json, key: string, value: unknown) => {
  if (value !== undefined) target[key] = value;
};

const objectIn = (value: unknown): Json => (typeof value === 'object' && value ? { ...(value as Json) } : {});

function applyPayer(out: Json, base: Json, flags: CreateFlags): void {
  const payer = objectIn(base.payer);
  const fields: [string, string | undefined][] = [
    ['name', flags.payerName], ['email', flags.payerEmail], ['cpf_cnpj', flags.payerDocument], ['phone', flags.payerPhone],
    ['address_zip', flags.payerZip], ['address_line', flags.payerAddress], ['address_number', flags.payerNumber],
    ['address_complement', flags.payerComplement], ['address_neighborhood', flags.payerNeighborhood],
    ['address_city', flags.payerCity], ['address_state', flags.payerState],
  ];
  for (const [key, value] of fields) set(payer, key, value);
  if (Object.keys(payer).length > 0) out.payer = payer;
}

function applyCard(out: Json, base: Json, flags: CreateFlags): void {
  if (flags.cardToken === undefined && flags.installments === undefined) return;
  const card = objectIn(base.card);
  set(card, 'token', flags.cardToken);
  if (flags.installments !== undefined) {
    const n = Number(flags.installments);
    if (!/^\d+$/.test(flags.installments) || n < 1 || n > MAX_INSTALLMENTS) throw usageError(`--installments must be a whole number from 1 to ${MAX_INSTALLMENTS}`);
    card.installment = Number(flags.installments);
  }
  out.card = card;
}

/** With items and no total (or items from flags and no --amount), the total is their sum. */
function applyItemsTotal(out: Json, flags: CreateFlags): void {
  const itemsFromFlags = Boolean(flags.item?.length) && flags.amount === undefined;
  if ((out.total_price_cents !== undefined && !itemsFromFlags) || !Array.isArray(out.items)) return;
  const items = out.items as { quantity?: unknown; unit_price?: unknown }[];
  if (!items.every((i) => Number.isInteger(i.quantity) && Number.isInteger(i.unit_price))) return;
  const total = items.reduce((sum, i) => sum + (i.quantity as number) * (i.unit_price as number), 0);
  // the items were typed in reais: so is the cap their sum breaks
  const problem = itemsFromFlags ? amountRangeProblem(total) : undefined;
  if (problem) throw usageError(`--item: the items add up to ${formatBRL(total)}; one charge can be ${problem}`);
  out.total_price_cents = total;
}

/** Flags override the file, field by field. */
export function applyFlags(base: Json, flags: CreateFlags): Json {
  const out: Json = { ...base };
  set(out, 'method', flags.method);
  set(out, 'total_price_cents', flags.amount === undefined ? undefined : amountFlag(flags.amount, '--amount'));
  set(out, 'items', flags.item?.length ? flags.item.map(parseItem) : undefined);
  set(out, 'product_fisical', flags.tangible === undefined ? undefined : String(flags.tangible));
  // "" is no postback URL, as in a file; anything else is checked here, so a missing scheme is suggested
  set(out, 'postback_url', flags.postbackUrl ? checkHttpUrl(flags.postbackUrl, '--postback-url') : flags.postbackUrl);
  set(out, 'ip_payer', flags.ip);
  set(out, 'external_id', flags.externalId);
  set(out, 'metadata', flags.metadata?.length ? parseMetadata(flags.metadata, base.metadata) : undefined);
  applyPayer(out, base, flags);
  applyCard(out, base, flags);
  applyItemsTotal(out, flags);
  return out;
}

/** The fields a flag sets, each with its flag and whether it was given: how an error names what the person typed. */
const FIELD_FLAGS: [path: string, flag: string, given: (flags: CreateFlags) => unknown][] = [
  ['method', '--method', (f) => f.method], ['total_price_cents', '--amount', (f) => f.amount],
  ['product_fisical', '--tangible', (f) => f.tangible], ['postback_url', '--postback-url', (f) => f.postbackUrl],
  ['ip_payer', '--ip', (f) => f.ip], ['external_id', '--external-id', (f) => f.externalId], ['metadata', '--metadata', (f) => f.metadata?.length || undefined],
  ['payer.name', '--payer-name', (f) => f.payerName], ['payer.email', '--payer-email', (f) => f.payerEmail],
  ['payer.cpf_cnpj', '--payer-document', (f) => f.payerDocument], ['payer.phone', '--payer-phone', (f) => f.payerPhone],
  ['payer.address_zip', '--payer-zip', (f) => f.payerZip], ['payer.address_line', '--payer-address', (f) => f.payerAddress],
  ['payer.address_number', '--payer-number', (f) => f.payerNumber], ['payer.address_complement', '--payer-complement', (f) => f.payerComplement],
  ['payer.address_neighborhood', '--payer-neighborhood', (f) => f.payerNeighborhood], ['payer.address_city', '--payer-city', (f) => f.payerCity],
  ['payer.address_state', '--payer-state', (f) => f.payerState], ['card.token', '--card-token', (f) => f.cardToken],
  ['card.installment', '--installments', (f) => f.installments],
];

/**
 * The flag that gave the value at a payload path (`items[1].unit_price` -> `--item "Meia:1:0,99"`), or
 * undefined when the value came from --file or a prompt. A total the --item flags added up is theirs.
 */
export function flagOfPath(flags: CreateFlags): (path: string) => string | undefined {
  return (path) => {
    const items = flags.item ?? [];
    // items[1].name as ours say it, items.1.name as a Laravel gateway does
    const index = /^items(?:\[(\d+)\]|\.(\d+))/.exec(path)?.slice(1).find((part) => part !== undefined);
    if (items.length > 0 && index !== undefined) return items[Number(index)] === undefined ? '--item' : `--item ${JSON.stringify(items[Number(index)])}`;
    if (items.length > 0 && (path === 'items' || (path === 'total_price_cents' && flags.amount === undefined))) return '--item';
    return FIELD_FLAGS.find(([field, , given]) => (path === field || path.startsWith(`${field}.`)) && given(flags) !== undefined)?.[1];
  };
}
