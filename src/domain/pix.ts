// pix BR Code (EMV QRCPS-MPM) builder and parser, per the Banco Central
// "Manual de Padrões para Iniciação do Pix".

export interface PixCodeInput {
  merchantName: string;
  merchantCity: string;
  amountCents: number;
  /**
   * Static-style codes (a key): the reference label of field 62.05, 1 to 25 letters and digits, "***" when absent.
   * Dynamic codes (a url) must not give one: 62.05 is then "***" and the payer's app reads the charge's
   * txid (26 to 35 characters) from the location, as the BCB manual prescribes.
   */
  txid?: string;
  /** a pix key (field 26.01) */
  key?: string;
  /** the payload location without scheme (field 26.25), ending in the charge's txid */
  url?: string;
}

export interface PixField {
  id: string;
  value: string;
  children?: PixField[];
}

export interface ParsedPix {
  fields: PixField[];
  payloadFormat: string;
  pointOfInitiation: string | null;
  gui: string;
  key: string | null;
  url: string | null;
  amountCents: number | null;
  currency: string;
  country: string;
  merchantName: string;
  merchantCity: string;
  txid: string | null;
  crc: string;
}

export class PixCodeError extends Error {
  override readonly name = 'PixCodeError';
}

const PIX_GUI = 'br.gov.bcb.pix';
const CRC_HEADER = '6304';
// EMV limits field 54 to 13 characters: "9999999999.99".
const MAX_AMOUNT_CENTS = 999_999_999_999;

/** CRC16/CCITT-FALSE of each byte value, so the checksum takes one step per byte, not eight. */
const CRC_TABLE = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});
const utf8 = new TextEncoder();

export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of utf8.encode(payload)) crc = ((crc << 8) & 0xffff) ^ (CRC_TABLE[(crc >> 8) ^ byte] ?? 0);
  return crc.toString(16).toUpperCase().padStart(4, '0');
}

function tlv(id: string, value: string): string {
  if (value.length < 1 || value.length > 99) {
    throw new RangeError(`field ${id} must be 1 to 99 characters, got ${value.length}`);
  }
  return `${id}${String(value.length).padStart(2, '0')}${value}`;
}

// Many bank apps reject non-ASCII names, so accents are stripped and anything
// else outside printable ASCII becomes a space.
function toPixAscii(text: string, maxLength: number): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7E]/gu, ' ')
    .slice(0, maxLength);
}

function requirePrintableAscii(name: string, value: string): string {
  if (!/^[\x20-\x7E]+$/.test(value)) throw new RangeError(`${name} must be non-empty printable ASCII`);
  return value;
}

function merchantAccount(input: PixCodeInput): string {
  if ((input.key === undefined) === (input.url === undefined)) {
    throw new RangeError('exactly one of key or url must be given');
  }
  if (input.key !== undefined) return tlv('00', PIX_GUI) + tlv('01', requirePrintableAscii('key', input.key));
  const url = requirePrintableAscii('url', input.url ?? '');
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) throw new RangeError('url must not include a scheme');
  return tlv('00', PIX_GUI) + tlv('25', url);
}

function formatAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0 || cents > MAX_AMOUNT_CENTS) {
    throw new RangeError(`amountCents must be an integer from 1 to ${MAX_AMOUNT_CENTS}, got ${cents}`);
  }
  return `${Math.trunc(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;
}

function referenceLabel(input: PixCodeInput): string {
  if (input.url !== undefined) {
    if (input.txid !== undefined) throw new RangeError('a dynamic code (url) carries its txid in the url, not in field 62.05');
    return '***';
  }
  const txid = input.txid ?? '***';
  if (txid !== '***' && !/^[A-Za-z0-9]{1,25}$/.test(txid)) throw new RangeError('txid must be 1 to 25 letters and digits');
  return txid;
}

export function buildPixCode(input: PixCodeInput): string {
  const body =
    tlv('00', '01') +
    tlv('01', '12') +
    tlv('26', merchantAccount(input)) +
    tlv('52', '0000') +
    tlv('53', '986') +
    tlv('54', formatAmount(input.amountCents)) +
    tlv('58', 'BR') +
    tlv('59', toPixAscii(input.merchantName, 25)) +
    tlv('60', toPixAscii(input.merchantCity, 15)) +
    tlv('62', tlv('05', referenceLabel(input))) +
    CRC_HEADER;
  return body + crc16(body);
}

function isTemplate(id: number): boolean {
  return (id >= 26 && id <= 51) || id === 62 || id >= 80;
}

function parseTlvs(data: string, parent: string | null): PixField[] {
  const fields: PixField[] = [];
  for (let pos = 0; pos < data.length; ) {
    const header = data.slice(pos, pos + 4);
    const id = header.slice(0, 2);
    const name = parent === null ? `field ${id}` : `field ${parent}.${id}`;
    if (!/^\d{4}$/.test(header)) throw new PixCodeError(`malformed TLV header "${header}" at position ${pos}`);
    const length = Number(header.slice(2));
    const value = data.slice(pos + 4, pos + 4 + length);
    if (length === 0 || value.length !== length) throw new PixCodeError(`${name} has an invalid length ${length}`);
    if (fields.some((field) => field.id === id)) throw new PixCodeError(`${name} appears more than once`);
    const nested = parent === null && isTemplate(Number(id));
    fields.push(nested ? { id, value, children: parseTlvs(value, id) } : { id, value });
    pos += 4 + length;
  }
  return fields;
}

function verifyCrc(code: string): string {
  const crc = code.slice(-4).toUpperCase();
  if (code.slice(-8, -4) !== CRC_HEADER || !/^[0-9A-F]{4}$/.test(crc)) {
    throw new PixCodeError('code does not end with a CRC field (6304 and 4 hex digits)');
  }
  const expected = crc16(code.slice(0, -4));
  if (crc !== expected) throw new PixCodeError(`CRC mismatch: expected ${expected}, got ${crc}`);
  return crc;
}

function valueOf(fields: PixField[] | undefined, id: string): string | null {
  return fields?.find((field) => field.id === id)?.value ?? null;
}

function required(fields: PixField[], id: string, expected?: string): string {
  const value = valueOf(fields, id);
  if (value === null) throw new PixCodeError(`field ${id} is missing`);
  if (expected !== undefined && value !== expected) {
    throw new PixCodeError(`field ${id} must be "${expected}", got "${value}"`);
  }
  return value;
}

function parseAmount(value: string | null): number | null {
  if (value === null) return null;
  const match = /^(\d+)(?:\.(\d{0,2}))?$/.exec(value);
  if (!match || value.length > 13) throw new PixCodeError('field 54 is not a valid amount');
  return Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
}

function pixAccount(fields: PixField[]): PixField {
  const accounts = fields.filter((field) => Number(field.id) >= 26 && Number(field.id) <= 51);
  const account = accounts.find((field) => valueOf(field.children, '00')?.toLowerCase() === PIX_GUI);
  if (!account) throw new PixCodeError(`no merchant account template (fields 26-51) has GUI ${PIX_GUI}`);
  if ((valueOf(account.children, '01') === null) === (valueOf(account.children, '25') === null)) {
    throw new PixCodeError(`field ${account.id} must have exactly one of key (01) or url (25)`);
  }
  return account;
}

export function parsePixCode(code: string): ParsedPix {
  const crc = verifyCrc(code);
  const fields = parseTlvs(code, null);
  const last = fields.at(-1);
  if (last?.id !== '63' || last.value.length !== 4) throw new PixCodeError('field 63 (CRC) is not the last field');
  if (fields[0]?.id !== '00') throw new PixCodeError('field 00 (payload format) is not the first field');
  const pointOfInitiation = valueOf(fields, '01');
  if (pointOfInitiation !== null && pointOfInitiation !== '11' && pointOfInitiation !== '12') {
    throw new PixCodeError(`field 01 must be "11" or "12", got "${pointOfInitiation}"`);
  }
  const account = pixAccount(fields);
  required(fields, '52');
  return {
    fields,
    payloadFormat: required(fields, '00', '01'),
    pointOfInitiation,
    gui: required(account.children ?? [], '00'),
    key: valueOf(account.children, '01'),
    url: valueOf(account.children, '25'),
    amountCents: parseAmount(valueOf(fields, '54')),
    currency: required(fields, '53', '986'),
    country: required(fields, '58', 'BR'),
    merchantName: required(fields, '59'),
    merchantCity: required(fields, '60'),
    txid: valueOf(fields.find((field) => field.id === '62')?.children, '05'),
    crc,
  };
}

export function isValidPixCode(code: string): boolean {
  try {
    parsePixCode(code);
    return true;
  } catch (error) {
    if (error instanceof PixCodeError) return false;
    throw error;
  }
}

/**
 * The last segment of a dynamic code's location (field 26.25 of the pix account): the charge's txid
 * on pinvoice serve. Read from the head of the code only, tolerantly: the fields after the merchant
 * account (name, city, CRC) may hold spaces a paste lost or added, which this does not need.
 */
export function locationTxid(code: string): string | null {
  for (let pos = 0; pos + 4 <= code.length; ) {
    const id = Number(code.slice(pos, pos + 2));
    const length = Number(code.slice(pos + 2, pos + 4));
    const value = code.slice(pos + 4, pos + 4 + length);
    if (!/^\d{4}$/.test(code.slice(pos, pos + 4)) || value.length !== length || id > 51) return null;
    if (id >= 26) {
      const children = parseOrNull(value);
      const url = children && valueOf(children, '00')?.toLowerCase() === PIX_GUI ? valueOf(children, '25') : null;
      if (url) return url.split('/').filter(Boolean).at(-1)?.split('?')[0] || null;
    }
    pos += 4 + length;
  }
  return null;
}

function parseOrNull(value: string): PixField[] | null {
  try {
    return parseTlvs(value, 'account');
  } catch (error) {
    if (error instanceof PixCodeError) return null;
    throw error;
  }
}
