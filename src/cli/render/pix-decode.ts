// `pix decode` for a person: the named fields, every field as coded (ids, lengths, templates opened),
// then the verdict, one broken rule a line under its id. Every string from the code is made safe first.
import type { KeyKind, PixDecoding, Tlv } from '../../domain/pix-decode.js';
import { formatBRL } from '../../domain/money.js';
import type { Palette } from './colour.js';
import { DASH } from './format.js';
import { safeData } from './safe-text.js';
import { keyValueTable, section, type Row } from './table.js';

const KEY_KINDS: Readonly<Record<KeyKind, string>> = { cpf: 'CPF', cnpj: 'CNPJ', email: 'e-mail', phone: 'phone', random: 'random key' };
const INITIATION: Readonly<Record<string, string>> = { '11': '11: reusable', '12': '12: one-time' };

function amountText({ amount, amount_cents: cents }: PixDecoding['fields']): string {
  if (amount === null) return 'open amount (the payer types it)';
  return cents === null ? `${amount} (not an amount)` : formatBRL(cents);
}

function fieldRows(decoded: PixDecoding): Row[] {
  const f = decoded.fields;
  const or = (value: string | null) => value ?? `${DASH} missing`;
  const rows: Row[] = [
    ['kind', decoded.kind === 'dynamic' ? 'dynamic (a location to fetch the charge from)' : 'static (a key)'],
    ['payload format (00)', or(f.payload_format)],
    ['initiation (01)', f.point_of_initiation === null ? 'absent: reusable' : (INITIATION[f.point_of_initiation] ?? f.point_of_initiation)],
    ['GUI (26-00)', or(f.gui)],
  ];
  if (f.key !== null || f.location === null) rows.push(['key (26-01)', f.key === null ? DASH : `${f.key} (${f.key_kind === null ? 'kind not recognised' : KEY_KINDS[f.key_kind]})`]);
  if (f.description !== null) rows.push(['description (26-02)', f.description]);
  if (f.location !== null) rows.push(['location (26-25)', f.location]);
  rows.push(
    ['MCC (52)', or(f.mcc)],
    ['currency (53)', f.currency === '986' ? '986 (real)' : or(f.currency)],
    ['amount (54)', amountText(f)],
    ['country (58)', or(f.country)],
    ['merchant name (59)', or(f.merchant_name)],
    ['city (60)', or(f.merchant_city)],
  );
  if (f.postal_code !== null) rows.push(['postal code (61)', f.postal_code]);
  rows.push(['txid (62-05)', or(f.txid)], ['CRC (63)', or(f.crc)]);
  return rows;
}

/** "26 58" then its fields indented under it; a plain field as "59 13 Fulano de Tal". */
function tlvLines(fields: readonly Tlv[], palette: Palette, indent = ''): string[] {
  return fields.flatMap((field) => {
    const head = `${indent}${field.id} ${palette.dim(String(field.length).padStart(2, '0'))}`;
    return field.sub ? [head, ...tlvLines(field.sub, palette, `${indent}   `)] : [`${head} ${field.value}`];
  });
}

function verdict(decoded: PixDecoding, palette: Palette): string {
  if (decoded.valid) return `${palette.ok('valid')}: the code keeps every rule of the BCB checklist`;
  if (decoded.kind === null) return `${palette.bad('invalid')}: not a BR Code\n  ${decoded.problems.map((problem) => `${problem.rule}  ${problem.message}`).join('\n  ')}`;
  const width = Math.max(...decoded.problems.map((problem) => problem.rule.length));
  const count = new Set(decoded.problems.map((problem) => problem.rule)).size;
  return [
    `${palette.bad('invalid')}: ${count === 1 ? 'a rule is' : `${count} rules are`} broken`,
    ...decoded.problems.map((problem) => `  ${problem.rule.padEnd(width)}  ${problem.message}`),
  ].join('\n');
}

export function renderPixDecoding(given: PixDecoding, palette: Palette): string {
  const decoded = safeData(given);
  if (decoded.kind === null) return verdict(decoded, palette);
  const title = `pix code (${decoded.kind})`;
  const coded = tlvLines(decoded.tlv, palette).join('\n');
  return `${section(title, keyValueTable(fieldRows(decoded), palette), palette)}\n\n${section('Fields as coded (id, length, value)', coded, palette)}\n\n${verdict(decoded, palette)}`;
}
