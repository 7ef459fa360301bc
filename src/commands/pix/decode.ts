// `pinvoice pix decode`: a pasted pix code's fields, and every rule of the BCB's checklist it breaks
// (exit 11 when any; the fields are printed all the same).
import { readStdin, utf8Text } from '../../base/read-input.js';
import { CliError, EXIT, usageError } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { decodePix, readPastedCode, type PixDecoding, type Tlv } from '../../domain/pix-decode.js';
import type { PixDecodeFlags } from './index.js';

interface TlvJson { id: string; length: number; value: string; sub?: TlvJson[] }
const tlvJson = (field: Tlv): TlvJson => ({ id: field.id, length: field.length, value: field.value, ...(field.sub && { sub: field.sub.map(tlvJson) }) });

/**
 * The code of a `<code|->` argument (stdin for -), as pasted, read by the checklist: shared by
 * `pix decode`, `pix verify` and `pix pay`, which all start from it.
 */
export async function readCodeArgument(given: string, out: Output, verb = 'decode'): Promise<{ code: string; decoded: PixDecoding }> {
  const text = given === '-' ? utf8Text(await readStdin(), '<code> - (stdin)') : given;
  if (text.trim() === '') throw usageError(given === '-' ? `stdin held no code to ${verb}` : `no code to ${verb}: give it as the argument, or - to read it from stdin`);
  const { code, changed } = readPastedCode(text);
  if (changed) out.message('the code held spaces or line breaks; read without them');
  return { code, decoded: decodePix(code) };
}

/** What `pix decode` says of a code that breaks rules (exit 11), naming each rule once. */
export const brokenRules = (decoded: PixDecoding) => {
  const rules = [...new Set(decoded.problems.map((problem) => problem.rule))];
  return `the pix code breaks ${rules.length === 1 ? 'a rule' : `${rules.length} rules`}: ${rules.join(', ')}`;
};

export async function decodePixCode(given: string, flags: PixDecodeFlags): Promise<void> {
  const out = createOutput(flags);
  const { decoded } = await readCodeArgument(given, out);
  const { valid, kind, fields, problems } = decoded;
  if (out.json) {
    out.jsonData({ valid, kind, fields, tlv: decoded.tlv.map(tlvJson), problems });
  } else {
    const { renderPixDecoding } = await import('../../cli/render/pix-decode.js');
    out.data(renderPixDecoding(decoded, out.palette));
  }
  if (valid) return;
  throw new CliError(brokenRules(decoded), EXIT.invalidCode);
}
