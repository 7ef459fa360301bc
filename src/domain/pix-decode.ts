// A pix copy-and-paste code (BR Code, EMV QRCPS-MPM) read for a person: every field, and every rule of
// the Banco Central's checklist it breaks, each under a stable id. parsePixCode (pix.ts) stops at the
// first broken rule, which is what issuing wants; support wants them all, and the fields anyway.
import { isValidCnpj, isValidCpf } from './document.js';
import { crc16 } from './pix.js';

export type PixRule = 'length' | 'format' | 'initiation' | 'gui' | 'key-or-location' | 'location' | 'mcc' | 'currency' | 'amount'
  | 'country' | 'name' | 'city' | 'txid' | 'crc-position' | 'crc';
export interface PixProblem { rule: PixRule; message: string }
/** A field as read: `offset` counts characters from the start of the code. */
export interface Tlv { id: string; length: number; value: string; offset: number; sub?: Tlv[] }
export type KeyKind = 'cpf' | 'cnpj' | 'email' | 'phone' | 'random';

export interface PixFields {
  payload_format: string | null;
  point_of_initiation: string | null;
  gui: string | null;
  key: string | null;
  key_kind: KeyKind | null;
  description: string | null;
  location: string | null;
  mcc: string | null;
  currency: string | null;
  amount: string | null;
  amount_cents: number | null;
  country: string | null;
  merchant_name: string | null;
  merchant_city: string | null;
  postal_code: string | null;
  txid: string | null;
  crc: string | null;
}

export interface PixDecoding {
  valid: boolean;
  /** static: a key the payer's app pays; dynamic: a location it fetches the charge from; null: not a BR Code */
  kind: 'static' | 'dynamic' | null;
  fields: PixFields;
  tlv: Tlv[];
  problems: PixProblem[];
}

const PIX_GUI = 'br.gov.bcb.pix';
const isTemplate = (id: number) => (id >= 26 && id <= 51) || id === 62 || id >= 80;
const find = (fields: Tlv[] | undefined, id: string) => fields?.find((field) => field.id === id);
const valueOf = (fields: Tlv[] | undefined, id: string) => find(fields, id)?.value ?? null;

interface Reading { fields: Tlv[]; problems: PixProblem[]; unread: Set<string> }

/** The fields between start and end; where a field cannot be read, reading stops and `unread` names the level. */
function readTlvs(code: string, start: number, end: number, parent: string | null, into: Reading): Tlv[] {
  const fields: Tlv[] = [];
  const stop = (message: string) => {
    into.problems.push({ rule: 'length', message });
    into.unread.add(parent ?? 'top');
    return fields;
  };
  for (let pos = start; pos < end; ) {
    const header = code.slice(pos, Math.min(pos + 4, end));
    const name = parent === null ? header.slice(0, 2) : `${parent}-${header.slice(0, 2)}`;
    const inside = parent === null ? '' : ` of field ${parent}`;
    const last = fields.at(-1);
    const after = last ? `, after field ${parent === null ? '' : `${parent}-`}${last.id} (which declares ${last.length} characters)` : '';
    if (!/^\d{4}$/.test(header)) return stop(`no field can start at offset ${pos}${inside}${after}: "${header}" is not an id and a length (4 digits)`);
    const length = Number(header.slice(2));
    if (length === 0) return stop(`field ${name} at offset ${pos} declares length 00`);
    if (pos + 4 + length > end) return stop(`field ${name} at offset ${pos} declares ${length} characters, but only ${end - pos - 4} remain${inside}`);
    const field: Tlv = { id: header.slice(0, 2), length, value: code.slice(pos + 4, pos + 4 + length), offset: pos };
    if (find(fields, field.id)) into.problems.push({ rule: 'length', message: `field ${name} at offset ${pos} appears a second time` });
    if (parent === null && isTemplate(Number(field.id))) field.sub = readTlvs(code, pos + 4, pos + 4 + length, field.id, into);
    fields.push(field);
    pos += 4 + length;
  }
  return fields;
}

function readCode(code: string): Reading {
  const reading: Reading = { fields: [], problems: [], unread: new Set() };
  reading.fields = readTlvs(code, 0, code.length, null, reading);
  return reading;
}

/** CPF and CNPJ only when their check digits match; a phone as DICT stores it (+55…); a random key is a UUID. */
export function keyKind(key: string): KeyKind | null {
  if (/^\d{11}$/.test(key) && isValidCpf(key)) return 'cpf';
  if (/^[0-9A-Z]{12}\d{2}$/.test(key) && isValidCnpj(key)) return 'cnpj';
  if (/^\+55\d{10,11}$/.test(key)) return 'phone';
  if (/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(key)) return 'email';
  if (/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(key)) return 'random';
  return null;
}

const AMOUNT = /^(\d+)(?:\.(\d{0,2}))?$/;
function amountCents(value: string | null): number | null {
  const match = value === null || value.length > 13 ? null : AMOUNT.exec(value);
  return match ? Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0')) : null;
}

/** The pix merchant account: the template of 26–51 whose GUI is pix's, else field 26 (to say what is wrong with it). */
const pixAccount = (top: Tlv[]) =>
  top.find((f) => Number(f.id) >= 26 && Number(f.id) <= 51 && valueOf(f.sub, '00')?.toLowerCase() === PIX_GUI) ?? find(top, '26');

function namedFields(top: Tlv[], account: Tlv | undefined): PixFields {
  const key = valueOf(account?.sub, '01');
  const amount = valueOf(top, '54');
  return {
    payload_format: valueOf(top, '00'), point_of_initiation: valueOf(top, '01'),
    gui: valueOf(account?.sub, '00'), key, key_kind: key === null ? null : keyKind(key),
    description: valueOf(account?.sub, '02'), location: valueOf(account?.sub, '25'),
    mcc: valueOf(top, '52'), currency: valueOf(top, '53'), amount, amount_cents: amountCents(amount), country: valueOf(top, '58'),
    merchant_name: valueOf(top, '59'), merchant_city: valueOf(top, '60'), postal_code: valueOf(top, '61'),
    txid: valueOf(find(top, '62')?.sub, '05'), crc: valueOf(top, '63'),
  };
}

/**
 * The readings of a pasted code, fewest changes first. Line breaks and tabs are never part of a code,
 * spaces may be (a name's), so each blank run inside it is either dropped or kept as its spaces.
 * Past `limit` such runs, only two readings: every run kept as its spaces, and every run dropped.
 */
export function pastedReadings(text: string, limit = 12): string[] {
  const parts = text.trim().split(/(\s+)/);
  const choices = parts.flatMap((part, i) => (i % 2 === 1 && part.includes(' ') ? [i] : []));
  const n = choices.length;
  const drops = n > limit
    ? [choices.map(() => false), choices.map(() => true)]
    : Array.from({ length: 2 ** n }, (_, mask) => choices.map((_, bit) => ((mask >> bit) & 1) === 1));
  const count = (drop: boolean[]) => drop.filter(Boolean).length;
  return drops.sort((a, b) => count(a) - count(b)).map((drop) => parts.map((part, i) => {
    if (i % 2 === 0) return part;
    const at = choices.indexOf(i);
    return at >= 0 && !drop[at] ? part.replace(/[^ ]/g, '') : '';
  }).join(''));
}

const crcConfirms = (code: string) => /6304[0-9A-F]{4}$/.test(code) && crc16(code.slice(0, -4)) === code.slice(-4);
const structureHolds = (code: string) => {
  const reading = readCode(code);
  return reading.problems.length === 0 && reading.fields.at(-1)?.id === '63';
};

/**
 * The code a person pasted (terminals wrap long lines, chats add spaces): line breaks dropped, and a
 * space dropped only where the code's own structure and CRC confirm it (else a name keeps its spaces,
 * and a broken length is reported, not mended). Both are asked: among thousands of readings, one may
 * match a CRC by chance. `changed` when anything inside the code was dropped.
 */
export function readPastedCode(text: string): { code: string; changed: boolean } {
  const readings = pastedReadings(text);
  const code = readings.find((reading) => crcConfirms(reading) && structureHolds(reading)) ?? readings[0] ?? '';
  return { code, changed: code !== text.trim() };
}

interface CheckContext { code: string; top: Tlv[]; account: Tlv | undefined; fields: PixFields; dynamic: boolean; unread: Set<string> }

const NAMES: Readonly<Record<string, string>> = {
  '00': 'payload format indicator', '01': 'point of initiation', '26': 'merchant account information', '52': 'merchant category code',
  '53': 'currency', '54': 'amount', '58': 'country', '59': 'merchant name', '60': 'merchant city', '62': 'additional data', '63': 'CRC',
};
const label = (id: string) => `field ${id} (${NAMES[id] ?? 'unknown'})`;
const subLabel = (c: CheckContext, id: string, name: string) => `field ${c.account?.id ?? '26'}-${id} (${name})`;

/** "missing" only where the field could have been read: not past a field whose length broke the reading. */
function missing(c: CheckContext, message: string, container?: Tlv): string | undefined {
  return c.unread.has(container?.id ?? 'top') ? undefined : message;
}

type Check = (c: CheckContext) => string | undefined;

const fixed = (id: string, expected: string): Check => (c) => {
  const value = valueOf(c.top, id);
  if (value === null) return missing(c, `${label(id)} is missing; it must be "${expected}"`);
  return value === expected ? undefined : `${label(id)} must be "${expected}", found "${value}"`;
};

const text = (id: string, max: number): Check => (c) => {
  const value = valueOf(c.top, id);
  if (value === null) return missing(c, `${label(id)} is missing; it must hold 1 to ${max} characters`);
  return value.length <= max ? undefined : `${label(id)} holds ${value.length} characters, at most ${max}: "${value}"`;
};

const gui: Check = (c) => {
  if (!c.account) return missing(c, `${label('26')} is missing; it holds the GUI ${PIX_GUI} and a key or a location`);
  const value = c.fields.gui;
  if (value === null) return missing(c, `${subLabel(c, '00', 'GUI')} is missing; it must be ${PIX_GUI}`, c.account);
  return value.toLowerCase() === PIX_GUI ? undefined : `${subLabel(c, '00', 'GUI')} must be ${PIX_GUI}, found "${value}"`;
};

const keyOrLocation: Check = (c) => {
  const { key, location } = c.fields;
  const account = `field ${c.account?.id ?? '26'} (merchant account information)`;
  if (key !== null && location !== null) return `${account} holds both a key (01) and a location (25); a code holds one of them`;
  if (key !== null || location !== null) return undefined;
  return missing(c, `${account} holds neither a key (01) nor a location (25)`, c.account);
};

const location: Check = (c) => {
  const url = c.fields.location;
  const scheme = url === null ? null : /^[a-z][a-z0-9+.-]*:\/\//i.exec(url);
  if (scheme) return `${subLabel(c, '25', 'location')} must not start with a scheme ("${scheme[0]}"): ${url}`;
  return url === null || url.length <= 77 ? undefined : `${subLabel(c, '25', 'location')} holds ${url.length} characters, at most 77`;
};

const amount: Check = ({ fields }) => {
  const value = fields.amount;
  if (value === null) return undefined;
  if (value.length > 13) return `${label('54')} holds ${value.length} characters, at most 13: "${value}"`;
  if (!AMOUNT.test(value)) return `${label('54')} must be digits with an optional "." and up to 2 decimals (like 19.90), found "${value}"`;
  return fields.amount_cents === 0 ? `${label('54')} must be more than 0, found "${value}"` : undefined;
};

const txid: Check = (c) => {
  const value = c.fields.txid;
  const additional = find(c.top, '62');
  const allowed = c.dynamic ? '"***" (a dynamic code: the txid is read from the location)' : '"***" or 1 to 25 letters and digits';
  if (value === null) return missing(c, `field 62-05 (txid) is missing; it must be ${allowed}`, additional);
  const ok = value === '***' || (!c.dynamic && /^[A-Za-z0-9]{1,25}$/.test(value));
  return ok ? undefined : `field 62-05 (txid) must be ${allowed}, found "${value}"`;
};

const initiation: Check = ({ fields }) => {
  const value = fields.point_of_initiation;
  return value === null || value === '11' || value === '12' ? undefined : `${label('01')} must be "11" (reusable) or "12" (one-time), found "${value}"`;
};

const CHECKS: readonly (readonly [PixRule, Check])[] = [
  // (field 00 comes first: decodePix reads nothing else as a BR Code)
  ['format', fixed('00', '01')],
  ['initiation', initiation], ['gui', gui], ['key-or-location', keyOrLocation], ['location', location],
  ['mcc', fixed('52', '0000')], ['currency', fixed('53', '986')], ['amount', amount], ['country', fixed('58', 'BR')],
  ['name', text('59', 25)], ['city', text('60', 15)], ['txid', txid],
];

/** Field 63 where it was read, else a "6304" and 4 hex characters ending the text (when a length broke the reading). */
function crcProblems(c: CheckContext): PixProblem[] {
  const field = find(c.top, '63');
  const tail = /6304[0-9A-Fa-f]{4}$/.test(c.code) ? c.code.length - 8 : -1;
  if (!field && (tail < 0 || !c.unread.has('top'))) return [{ rule: 'crc-position', message: 'no CRC field (6304 and 4 hex characters) ends the code' }];
  const problems: PixProblem[] = [];
  if (field && field !== c.top.at(-1)) problems.push({ rule: 'crc-position', message: `${label('63')} at offset ${field.offset} must be the last field` });
  const found = field?.value ?? c.code.slice(-4);
  if (!/^[0-9A-Fa-f]{4}$/.test(found)) return [...problems, { rule: 'crc-position', message: `${label('63')} must hold 4 hex characters, found "${found}"` }];
  const expected = crc16(c.code.slice(0, (field?.offset ?? tail) + 4));
  if (found === expected) return problems;
  const message = found.toUpperCase() === expected
    ? `${label('63')} is ${found}, in lower case: it must be ${expected}`
    : `${label('63')} is ${found}, but the code's content gives ${expected}: the code was changed or mistyped`;
  return [...problems, { rule: 'crc', message }];
}

function notBrCode(code: string): PixDecoding {
  const what = code === '' ? 'it is empty' : `it starts with "${code.slice(0, 6)}"`;
  const boleto = /^\d{44}$|^\d{47,48}$/.test(code.replace(/[\s.]/g, '')) ? ': its digits look like a boleto line or barcode' : '';
  const message = `not a BR Code: a pix code starts with 000201 (field 00, payload format indicator "01"); ${what}${boleto}`;
  return { valid: false, kind: null, fields: namedFields([], undefined), tlv: [], problems: [{ rule: 'format', message }] };
}

/** Every field of a code and every rule of the checklist it breaks; `code` as read (see readPastedCode). */
export function decodePix(code: string): PixDecoding {
  if (!code.startsWith('0002')) return notBrCode(code);
  const reading = readCode(code);
  const account = pixAccount(reading.fields);
  const fields = namedFields(reading.fields, account);
  const c: CheckContext = { code, top: reading.fields, account, fields, dynamic: fields.location !== null, unread: reading.unread };
  const broken = CHECKS.flatMap(([rule, check]) => {
    const message = check(c);
    return message === undefined ? [] : [{ rule, message }];
  });
  const problems = [...reading.problems, ...broken, ...crcProblems(c)];
  return { valid: problems.length === 0, kind: c.dynamic ? 'dynamic' : 'static', fields, tlv: reading.fields, problems };
}
