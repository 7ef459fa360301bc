// `pinvoice logs export --journal FILE | --records FILE… --fixtures OUT.json [--charge REF…]`: production
// records as a `serve --fixtures` document, the payers faked (src/proxy/export/). OUT is written whole
// and owner-only (a temporary file renamed over it), or to stdout for `-`; a summary goes to stderr.
import { checkWritablePath, writeOwnerOnly } from '../../base/env-file.js';
import { usageError } from '../../cli/errors.js';
import type { ExportFlags } from './index.js';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export async function exportRecords(flags: ExportFlags): Promise<void> {
  if ((flags.journal === undefined) === (flags.records === undefined)) throw usageError('give --journal FILE (a `pinvoice proxy` journal) or --records FILE… (records saved with `pinvoice invoice get REF --json`), one of the two');
  const out = flags.fixtures;
  if (out !== '-') checkWritablePath(out, '--fixtures');
  const [{ journalRecords, savedRecords }, { fixturesDocument }] = await Promise.all([import('../../proxy/export/sources.js'), import('../../proxy/export/fixtures-document.js')]);
  const refs = flags.charge ?? [];
  const found = flags.journal !== undefined ? await journalRecords(flags.journal, refs) : await savedRecords(flags.records ?? [], refs);
  const { document, people, metadataHolding } = fixturesDocument(found.records);
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const notify = (line: string) => process.stderr.write(`pinvoice: ${line}\n`);
  if (out === '-') process.stdout.write(text);
  else writeOwnerOnly(out, text, '--fixtures', notify);
  for (const path of metadataHolding) notify(`${path} holds a payer's personal data: kept as sent (metadata is the merchant's own; edit the file if it must not leave)`);
  const from = flags.journal !== undefined ? count(found.sources, 'journal entry', 'journal entries') : count(found.sources, 'saved record', 'saved records');
  process.stderr.write(`${out === '-' ? 'stdout' : out}: ${count(found.records.length, 'charge', 'charges')} from ${from}, ${count(people, 'payer', 'payers')} faked\n`);
}
