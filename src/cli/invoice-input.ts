// The create payload from a JSON file or stdin, overridden by flags.
import { readFileSync } from 'node:fs';
import type { RequestItem } from '../api/schemas.js';
import { AmountError, parseAmount } from '../domain/money.js';
import { usageError } from './errors.js';

export interface CreateFlags {
  file?: string;
  method?: string;
  amount?: string;
  payerName?: string;
  payerEmail?: string;
  payerDocument?: string;
  payerPhone?: string;
  payerZip?: string;
  payerAddress?: string;
  payerNumber?: string;
  payerComplement?: string;
  payerNeighborhood?: string;
  payerCity?: string;
  payerState?: string;
  item?: string[];
  tangible?: boolean;
  postbackUrl?: string;
  ip?: string;
  externalId?: string;
  metadata?: string[];
  cardToken?: string;
  installments?: string;
}

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

function money(text: string, flag: string): number {
  try {
    return parseAmount(text);
  } catch (error) {
    if (error instanceof AmountError) throw usageError(`${flag}: ${error.message}`);
    throw error;
  }
}

/** "Camiseta azul:2:19,90" -> {name, quantity 2, unit_price 1990}; the name may hold colons. */
export function parseItem(text: string): RequestItem {
  const parts = text.split(':');
  if (parts.length < 3) throw usageError(`--item "${text}" must be "name:quantity:unit_price", e.g. "Camiseta:2:19,90"`);
  const price = parts.pop() ?? '';
  const quantity = parts.pop() ?? '';
  const name = parts.join(':').trim();
  if (!name) throw usageError(`--item "${text}": the name is empty`);
  if (!/^\d+$/.test(quantity.trim()) || Number(quantity) < 1) throw usageError(`--item "${text}": quantity must be a whole number ≥ 1`);
  return { name, quantity: Number(quantity), unit_price: money(price, `--item "${text}" unit price`) };
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function readStdinText(): Promise<string> {
  return (await readStdin()).toString('utf8');
}

/** The bytes a file flag names (`-`: stdin); an unreadable file is a usage error naming the flag. */
export async function readFileFlag(flag: string, path: string): Promise<Buffer> {
  try {
    return path === '-' ? await readStdin() : readFileSync(path);
  } catch (error) {
    throw usageError(`${flag} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

export async function readPayload(file: string): Promise<Json> {
  const text = (await readFileFlag('--file', file)).toString('utf8');
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`--file ${file === '-' ? '- (stdin)' : file}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw usageError(`--file ${file}: must hold one JSON object`);
  return value as Json;
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

/** Flags override the file, field by field. */
export function applyFlags(base: Json, flags: CreateFlags): Json {
  const out: Json = { ...base };
  const payer: Json = { ...(typeof base.payer === 'object' && base.payer ? (base.payer as Json) : {}) };
  set(out, 'method', flags.method);
  set(out, 'total_price_cents', flags.amount === undefined ? undefined : money(flags.amount, '--amount'));
  set(out, 'items', flags.item?.length ? flags.item.map(parseItem) : undefined);
  set(out, 'product_fisical', flags.tangible === undefined ? undefined : String(flags.tangible));
  set(out, 'postback_url', flags.postbackUrl);
  set(out, 'ip_payer', flags.ip);
  set(out, 'external_id', flags.externalId);
  set(out, 'metadata', flags.metadata?.length ? parseMetadata(flags.metadata, base.metadata) : undefined);
  const fields: [string, string | undefined][] = [
    ['name', flags.payerName], ['email', flags.payerEmail], ['cpf_cnpj', flags.payerDocument], ['phone', flags.payerPhone],
    ['address_zip', flags.payerZip], ['address_line', flags.payerAddress], ['address_number', flags.payerNumber],
    ['address_complement', flags.payerComplement], ['address_neighborhood', flags.payerNeighborhood],
    ['address_city', flags.payerCity], ['address_state', flags.payerState],
  ];
  for (const [key, value] of fields) set(payer, key, value);
  if (Object.keys(payer).length > 0) out.payer = payer;
  if (flags.cardToken !== undefined || flags.installments !== undefined) {
    const card: Json = { ...(typeof base.card === 'object' && base.card ? (base.card as Json) : {}) };
    set(card, 'token', flags.cardToken);
    if (flags.installments !== undefined) {
      if (!/^\d+$/.test(flags.installments)) throw usageError('--installments must be a whole number from 1 to 12');
      card.installment = Number(flags.installments);
    }
    out.card = card;
  }
  // With items and no total (or items from flags and no --amount), the total is their sum.
  const itemsFromFlags = Boolean(flags.item?.length) && flags.amount === undefined;
  if ((out.total_price_cents === undefined || itemsFromFlags) && Array.isArray(out.items)) {
    const items = out.items as { quantity?: unknown; unit_price?: unknown }[];
    if (items.every((i) => Number.isInteger(i.quantity) && Number.isInteger(i.unit_price))) {
      out.total_price_cents = items.reduce((sum, i) => sum + (i.quantity as number) * (i.unit_price as number), 0);
    }
  }
  return out;
}
