// `pinvoice invoice create`: the charge from --file and the flags, completed by prompts on a terminal
// (never without one: then what is missing is named), validated like the server does, then sent.
import type { CreateInvoiceRequest } from '../../api/schemas.js';
import { validateCreateRequest } from '../../api/validate.js';
import { readJsonObjectFlag } from '../../base/read-input.js';
import { connect } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { inUserTerms, invalidRequest } from '../../cli/field-errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { closingLines } from '../../cli/render/next-step.js';
import { checkSingleFlags } from './batch-flags.js';
import { applyFlags, FLAG_FOR_PATH, flagOfPath } from './create-input.js';
import { refuseUnknownFields, sendable, warnIgnoredFields } from './unknown-fields.js';
import type { CreateFlags } from './index.js';
import { postbacksOf, show, showReceipt, wantsReceipt } from './show.js';
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
  return promptInvoice(partial, await inquirerPrompter(flags), {
    now: new Date(),
    renderSummary: (request: CreateInvoiceRequest) => renderRequestSummary(request, out.palette),
    write: (text: string) => out.message(text),
  });
}

export async function createInvoice(flags: CreateFlags): Promise<void> {
  checkSingleFlags(flags);
  const out = createOutput(flags);
  const partial = applyFlags(flags.file ? await readJsonObjectFlag('--file', flags.file) : {}, flags);
  // before any question: the flags add only known fields, so only a file's can be unknown
  if (flags.file && !flags.allowUnknownFields) refuseUnknownFields(partial, flags.file === '-' ? '--file - (stdin)' : `--file ${flags.file}`);
  // Resolve the profile before asking anything: a missing login fails before the questions.
  const connection = flags.dryRun ? undefined : await connect(flags);
  const request = await complete(partial, flags, out);
  const checked = validateCreateRequest(request);
  // each problem named by the flag that gave it (amounts in reais), or by its path in --file
  const terms = { flagOf: flagOfPath(flags), sent: request, source: flags.file && '--file' };
  if (!checked.ok) throw invalidRequest('the charge is not valid', checked.details, terms);
  const body = sendable(checked.value, request, flags.allowUnknownFields);
  if (!connection) return out.jsonData(body);
  const { client } = connection;
  const answer: { replayed?: boolean } = {};
  const created = await client.createInvoice(body, flags.idempotencyKey, answer).catch((error: unknown) => Promise.reject(inUserTerms(error, terms)));
  const tx = await recordOf(created, client, out);
  const events = await postbacksOf(client, tx, out);
  const context = { sandbox: events !== undefined, connection: flags };
  if (wantsReceipt(out, flags)) {
    warnIgnoredFields(out, created.ignoredFields);
    if (answer.replayed) out.message(replayedLine(flags.idempotencyKey));
    const { createdReceipt } = await import('../../cli/render/charge-receipt.js');
    await showReceipt(out, tx, createdReceipt(tx, context), flags.qr);
    return refuseUnpaid(tx);
  }
  // after the record, before the pix code and QR that end it on a terminal (show.ts): what was created
  // and what to run next (only pinvoice serve keeps postback events), folded to a terminal's width
  const closing = out.json ? '' : await closingLines(tx, context, process.stderr.isTTY ? process.stderr.columns : undefined);
  const afterRecord = () => {
    warnIgnoredFields(out, created.ignoredFields);
    if (answer.replayed) out.message(replayedLine(flags.idempotencyKey));
    if (!out.json) out.message(closing);
  };
  await show(out, tx, { ...flags, baseUrl: connection.connection.baseUrl, afterRecord }, events);
  refuseUnpaid(tx);
}

const replayedLine = (key: string | undefined) =>
  `replayed (Idempotency-Key ${key ?? '—'}): the gateway had already created this charge for that key, and answered it again; nothing new was created`;

/** A card refused at creation ends like `--watch` does for the same outcome: exit 7, saying why on stderr. */
function refuseUnpaid(tx: TransactionView): void {
  if (tx.status !== 'refused') return;
  const reason = tx.refusedReason ? `: ${tx.refusedReason}` : '';
  throw new CliError(`charge ${tx.ref ?? tx.secureId ?? ''} was refused${reason} (nothing was charged)`, EXIT.notPaid);
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
