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
import type { Client, Created } from '../../client/index.js';
import { ApiRequestError } from '../../client/errors.js';
import type { TransactionView } from '../../client/read/transaction.js';

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
  const { client } = connection;
  const tx = await recordOf(await client.createInvoice(checked.value, flags.idempotencyKey), client, out);
  await show(out, tx, { ...flags, baseUrl: connection.connection.baseUrl }, await postbacksOf(client, tx, out));
}

/**
 * The created charge's whole record: the answer's, or (production answers only its id, pix code and
 * status) the one looked up by that id. A failed lookup does not fail the command: the charge exists,
 * so what the answer said is shown, with why the rest is not.
 */
async function recordOf(created: Created, client: Client, out: Output): Promise<TransactionView> {
  if (created.whole || created.view.ref === undefined) return created.view;
  try {
    return await client.getInvoice(created.view.ref);
  } catch (error) {
    const reason = error instanceof ApiRequestError ? error.describe() : (error as Error).message;
    out.message(`the charge was created (${created.view.ref}), but looking up its whole record failed: ${reason}\nwhat the gateway answered to the create follows`);
    return created.view;
  }
}
