// The create payload from a JSON file or stdin, overridden by flags.
import { readFileSync } from 'node:fs';
import type { RequestItem } from '../api/schemas.js';
import { AmountError, amountRangeProblem, formatBRL, MAX_CENTS, parseAmount } from '../domain/money.js';
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

/**
 * Reais typed in a flag -> cents, read by the one parser (domain/money) and checked against the caps
 * here, in reais: the API's own check would answer in cents to someone who typed reais.
 */
export function amountFlag(text: string, flag: string): number {
  let cents: number;
  try {
    cents = parseAmount(text);
  } catch (error) {
    if (error instanceof AmountError) throw usageError(`${flag}: ${error.message}`);
    throw error;
  }
  const problem = amountRangeProblem(cents);
  if (problem) throw usageError(`${flag}: ${problem}, not ${formatBRL(cents)}`);
  return cents;
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
  const unitPrice = amountFlag(price, `--item "${text}" unit price`);
  if (Number(quantity) * unitPrice > MAX_CENTS) {
    throw usageError(`--item "${text}": ${quantity.trim()} × ${formatBRL(unitPrice)} is more than the ${formatBRL(MAX_CENTS)} one charge can be`);
  }
  return { name, quantity: Number(quantity), unit_price: unitPrice };
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const REPLACEMENT = Buffer.from('\uFFFD');

/** The offset of the first byte that is not valid UTF-8 (-1 if none): where Node's decoder put a U+FFFD of its own. */
function firstBadByte(bytes: Buffer): number {
  let offset = 0;
  for (const char of bytes.toString('utf8')) {
    if (char === '\uFFFD' && !bytes.subarray(offset, offset + 3).equals(REPLACEMENT)) return offset;
    offset += Buffer.byteLength(char);
  }
  return -1;
}

const sourceOf = (flag: string, path: string) => (path === '-' ? `${flag} - (stdin)` : `${flag} ${path}`);

/** UTF-8 text, or a usage error naming the flag, the file and the first bad byte: never text read with U+FFFD in it. */
export function utf8Text(bytes: Buffer, source: string): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    const at = firstBadByte(bytes);
    const where = at < 0 ? '' : ` (byte 0x${bytes[at]?.toString(16).toUpperCase().padStart(2, '0')} at offset ${at})`;
    throw usageError(`${source}: not UTF-8 text${where}; convert it to UTF-8 (e.g. iconv -f ISO-8859-1 -t UTF-8)`);
  }
}

/** What --token-stdin and the like read: stdin as UTF-8 text. */
export async function readStdinText(flag: string): Promise<string> {
  return utf8Text(await readStdin(), `${flag} (stdin)`);
}

async function readBytes(flag: string, path: string): Promise<Buffer> {
  try {
    return path === '-' ? await readStdin() : readFileSync(path);
  } catch (error) {
    throw usageError(`${flag} ${path}: ${(error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message}`);
  }
}

/** The bytes a file flag names (`-`: stdin), checked to be UTF-8; an unreadable file is a usage error naming the flag. */
export async function readFileFlag(flag: string, path: string): Promise<Buffer> {
  const bytes = await readBytes(flag, path);
  utf8Text(bytes, sourceOf(flag, path));
  return bytes;
}

/** The text a file flag names, as UTF-8 (a byte order mark dropped). */
export async function readTextFlag(flag: string, path: string): Promise<string> {
  return utf8Text(await readBytes(flag, path), sourceOf(flag, path));
}

export async function readPayload(file: string): Promise<Json> {
  const text = await readTextFlag('--file', file);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usageError(`${sourceOf('--file', file)}: not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw usageError(`${sourceOf('--file', file)}: must hold one JSON object`);
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
  set(out, 'total_price_cents', flags.amount === undefined ? undefined : amountFlag(flags.amount, '--amount'));
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
      const total = items.reduce((sum, i) => sum + (i.quantity as number) * (i.unit_price as number), 0);
      // the items were typed in reais: so is the cap their sum breaks
      const problem = itemsFromFlags ? amountRangeProblem(total) : undefined;
      if (problem) throw usageError(`--item: the items add up to ${formatBRL(total)}; one charge can be ${problem}`);
      out.total_price_cents = total;
    }
  }
  return out;
}
