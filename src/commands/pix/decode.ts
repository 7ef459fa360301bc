// `pinvoice pix decode`: a pasted pix code's fields, and every rule of the BCB's checklist it breaks
// (exit 11 when any; the fields are printed all the same).
import { readStdin, utf8Text } from '../../base/read-input.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { decodePix, readPastedCode, type Tlv } from '../../domain/pix-decode.js';
import type { PixDecodeFlags } from './index.js';

interface TlvJson { id: string; length: number; value: string; sub?: TlvJson[] }
const tlvJson = (field: Tlv): TlvJson => ({ id: field.id, length: field.length, value: field.value, ...(field.sub && { sub: field.sub.map(tlvJson) }) });

export async function decodePixCode(given: string, flags: PixDecodeFlags): Promise<void> {
  const text = given === '-' ? utf8Text(await readStdin(), '<code> - (stdin)') : given;
  if (text.trim() === '') throw usageError(given === '-' ? 'stdin held no code to decode' : 'no code to decode: give it as the argument, or - to read it from stdin');
  const out = createOutput(flags);
  const { code, changed } = readPastedCode(text);
  if (changed) out.message('the code held spaces or line breaks; read without them');
  const decoded = decodePix(code);
  const { valid, kind, fields, problems } = decoded;
  if (out.json) {
    out.jsonData({ valid, kind, fields, tlv: decoded.tlv.map(tlvJson), problems });
  } else {
    const { renderPixDecoding } = await import('../../cli/render/pix-decode.js');
    out.data(renderPixDecoding(decoded, out.palette));
  }
  if (valid) return;
  const rules = [...new Set(problems.map((problem) => problem.rule))];
  throw new CliError(`the pix code breaks ${rules.length === 1 ? 'a rule' : `${rules.length} rules`}: ${rules.join(', ')}`, EXIT.invalidCode);
}
