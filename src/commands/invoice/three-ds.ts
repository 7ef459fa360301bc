// `pinvoice invoice 3ds`: completes a card charge waiting for 3-D Secure, with values from the flags,
// a JSON file, or the documented sample.
import type { ThreeDSRequest } from '../../api/schemas.js';
import { readJsonObjectFlag } from '../../base/read-input.js';
import { connect } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { inUserTerms } from '../../cli/field-errors.js';
import { createOutput } from '../../cli/output.js';
import type { ThreeDsFlags } from './index.js';
import { show } from './show.js';

const FIELDS = ['cavv', 'xid', 'eci', 'version', 'referenceid'] as const;
type Field = (typeof FIELDS)[number];

export async function complete3ds(id: string, flags: ThreeDsFlags): Promise<void> {
  const { SAMPLE_3DS_VALUES } = await import('../../domain/card-outcome.js');
  const base: Record<string, unknown> = flags.sample ? { ...SAMPLE_3DS_VALUES } : flags.file ? await readJsonObjectFlag('--file', flags.file) : {};
  for (const field of FIELDS) if (flags[field] !== undefined) base[field] = flags[field];
  const missing = FIELDS.filter((field) => typeof base[field] !== 'string' || base[field] === '');
  if (missing.length) throw usageError(`3-D Secure values missing: ${missing.map((f) => `--${f}`).join(', ')} (or --file, or --sample)`);
  const out = createOutput(flags);
  const { client } = await connect(flags);
  // a field the server refuses is named by its flag when one gave it, else by its name in --file
  const terms = { flagOf: (path: string) => ((FIELDS as readonly string[]).includes(path) && flags[path as Field] !== undefined ? `--${path}` : undefined), sent: base, source: flags.file && '--file' };
  const tx = await client.complete3ds(id, base as ThreeDSRequest).catch((error: unknown) => Promise.reject(inUserTerms(error, terms)));
  await show(out, tx, { qr: false });
}
