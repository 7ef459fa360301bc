// `pinvoice invoice create`: the charge from --file and the flags, completed by prompts on a terminal
// (never without one: then what is missing is named), validated like the server does, then sent.
import type { CreateInvoiceRequest } from '../../api/schemas.js';
import { validateCreateRequest } from '../../api/validate.js';
import { readJsonObjectFlag } from '../../base/read-input.js';
import { connect } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { checkSingleFlags } from './batch-flags.js';
import { applyFlags, FLAG_FOR_PATH } from './create-input.js';
import type { CreateFlags } from './index.js';
import { postbacksOf, show } from './show.js';

function missingError(missing: string[]): CliError {
  const lines = missing.map((path) => `  ${path}${FLAG_FOR_PATH[path] ? `  (${FLAG_FOR_PATH[path]})` : ''}`);
  return new CliError(`input needed, and prompts are off (no TTY, --no-input, or --file -). Missing:\n${lines.join('\n')}`, EXIT.inputNeeded);
}

async function complete(partial: Record<string, unknown>, flags: CreateFlags, out: Output): Promise<unknown> {
  const { missingFields, promptInvoice } = await import('../../cli/prompts/invoice.js');
  const missing = missingFields(partial);
  if (missing.length === 0) return partial;
  const canPrompt = process.stdin.isTTY === true && flags.input !== false && flags.file !== '-';
  if (!canPrompt) throw missingError(missing);
  const [{ inquirerPrompter }, { renderRequestSummary }] = await Promise.all([import('../../cli/prompts/prompter.js'), import('../../cli/render/request.js')]);
  return promptInvoice(partial, await inquirerPrompter(), {
    now: new Date(),
    renderSummary: (request: CreateInvoiceRequest) => renderRequestSummary(request, out.palette),
    write: (text: string) => out.message(text),
  });
}

export async function createInvoice(flags: CreateFlags): Promise<void> {
  checkSingleFlags(flags);
  const out = createOutput(flags);
  const partial = applyFlags(flags.file ? await readJsonObjectFlag('--file', flags.file) : {}, flags);
  // Resolve the profile before asking anything: a missing login fails before the questions.
  const connection = flags.dryRun ? undefined : await connect(flags);
  const request = await complete(partial, flags, out);
  const checked = validateCreateRequest(request);
  if (!checked.ok) {
    const lines = checked.details.map((d) => `  ${d.path}: ${d.message}`);
    throw new CliError(`the charge is not valid:\n${lines.join('\n')}`, EXIT.usage);
  }
  if (!connection) return out.jsonData(checked.value);
  const tx = await connection.client.createInvoice(checked.value, flags.idempotencyKey);
  await show(out, tx, { ...flags, baseUrl: connection.connection.baseUrl }, await postbacksOf(connection.client, tx, out));
}
