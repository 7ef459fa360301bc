// `pinvoice invoice get` (with --watch) and `pinvoice invoice create`.
import type { WebhookEvent } from '../api/postbacks.js';
import type { CreateInvoiceRequest, Transaction } from '../api/schemas.js';
import type { Client } from '../client/index.js';
import { validateCreateRequest } from '../api/validate.js';
import { connect, type CommonFlags } from './context.js';
import { CliError, EXIT } from './errors.js';
import { applyFlags, FLAG_FOR_PATH, readPayload, type CreateFlags } from './invoice-input.js';
import { createOutput, type Output } from './output.js';
import { watchInvoice } from './watch.js';

export interface ShowFlags extends CommonFlags {
  qr?: boolean;
}

/** Shows a charge; with `events`, its postback deliveries too (the support view of `invoice get`). */
export async function show(out: Output, tx: Transaction, flags: ShowFlags, events?: WebhookEvent[]): Promise<void> {
  if (out.json) return out.jsonData(tx);
  const { renderTransaction } = await import('./render/transaction.js');
  const wantQr = flags.qr ?? (out.stdoutIsTTY && tx.status === 'pending');
  let qr: string | undefined;
  if (wantQr && tx.pix) qr = (await import('./render/qr.js')).renderQr(tx.pix.qrCode);
  const sections = [renderTransaction(tx, { palette: out.palette, qr })];
  if (events) sections.push((await import('./render/events.js')).renderEventTable(events, out.palette));
  out.data(sections.join('\n\n'));
}

/** The delivery history, when the server keeps one (a production gateway may not: then none is shown). */
async function postbacksOf(client: Client, tx: Transaction, out: Output): Promise<WebhookEvent[] | undefined> {
  if (out.json) return undefined;
  try {
    return await client.listEvents(tx.id);
  } catch {
    return undefined;
  }
}

export interface GetFlags extends ShowFlags {
  watch?: boolean;
  timeout: number;
  interval: number;
}

/**
 * While watching a pending pix charge, its QR and code come first, before the spinner: the payer
 * scans them during the wait. Answers whether they were shown, so the final record leaves them out.
 */
async function showPixWhileWaiting(out: Output, tx: Transaction, flags: GetFlags): Promise<boolean> {
  if (out.json || !tx.pix || tx.status !== 'pending' || !(flags.qr ?? out.stdoutIsTTY)) return false;
  const [{ renderQr }, { renderPayment }] = await Promise.all([import('./render/qr.js'), import('./render/transaction-payment.js')]);
  out.data(renderPayment(tx, renderQr(tx.pix.qrCode), out.palette) ?? tx.pix.qrCode);
  return true;
}

export async function getInvoice(id: string, flags: GetFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  let tx = await client.getInvoice(id.trim());
  if (!flags.watch) return show(out, tx, flags, await postbacksOf(client, tx, out));
  const shown = await showPixWhileWaiting(out, tx, flags);
  const result = await watchInvoice(client, tx, { timeoutMs: flags.timeout * 1000, intervalMs: flags.interval * 1000, spinner: process.stderr.isTTY === true });
  tx = result.tx;
  await show(out, tx, { ...flags, qr: shown ? false : (flags.qr ?? false) }, await postbacksOf(client, tx, out));
  if (result.timedOut) throw new CliError(`still ${tx.status} after ${flags.timeout} s (--timeout)`, EXIT.watchTimeout);
  if (tx.status !== 'paid') throw new CliError(`the charge ended ${tx.status}${tx.refusedReason ? ` (${tx.refusedReason})` : ''}`, EXIT.notPaid);
}

export interface CreateCommandFlags extends CreateFlags, ShowFlags {
  idempotencyKey?: string;
  dryRun?: boolean;
}

function missingError(missing: string[]): CliError {
  const lines = missing.map((path) => `  ${path}${FLAG_FOR_PATH[path] ? `  (${FLAG_FOR_PATH[path]})` : ''}`);
  return new CliError(`input needed, and prompts are off (no TTY, --no-input, or --file -). Missing:\n${lines.join('\n')}`, EXIT.inputNeeded);
}

async function complete(partial: Record<string, unknown>, flags: CreateCommandFlags, out: Output): Promise<unknown> {
  const { missingFields, promptInvoice } = await import('./prompts/invoice.js');
  const missing = missingFields(partial);
  if (missing.length === 0) return partial;
  const canPrompt = process.stdin.isTTY === true && flags.input !== false && flags.file !== '-';
  if (!canPrompt) throw missingError(missing);
  const [{ inquirerPrompter }, { renderRequestSummary }] = await Promise.all([import('./prompts/prompter.js'), import('./render/request.js')]);
  return promptInvoice(partial, await inquirerPrompter(), {
    now: new Date(),
    renderSummary: (request: CreateInvoiceRequest) => renderRequestSummary(request, out.palette),
    write: (text: string) => out.message(text),
  });
}

export async function createInvoice(flags: CreateCommandFlags): Promise<void> {
  const out = createOutput(flags);
  const partial = applyFlags(flags.file ? await readPayload(flags.file) : {}, flags);
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
  await show(out, tx, flags, await postbacksOf(connection.client, tx, out));
}
