// The closing lines of `invoice create`: what was created, on one line (the id has scrolled away behind
// the record's tables and the QR by then), and the command to run next for the charge's outcome. They
// are messages (stderr): stdout holds the record only, so `create > charge.txt` keeps them on screen.
import { invocation } from '../invocation.js';
import type { TransactionView } from '../../client/read/transaction.js';
import { amount } from './format.js';
import { safeText } from './safe-text.js';

export interface NextStepContext {
  /**
   * The server is `pinvoice serve` (it answered the postback history, an extension production lacks):
   * only then are sandbox-only steps (`3ds --sample`) suggested.
   */
  sandbox: boolean;
  /** The run's own --profile, --base-url and --token-file, repeated so the suggested command reaches the same server. */
  connection?: { profile?: string | undefined; baseUrl?: string | undefined; tokenFile?: string | undefined };
}

const METHOD_NAMES: Readonly<Record<string, string>> = { pix: 'pix', credit_card: 'card', boleto: 'boleto' };

/** A word as a POSIX shell reads it back: as is when plain, else in single quotes. */
export function shellWord(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** "Created pix charge 12 (INV-20261122-000012-4821) R$ 25,00 — pending" */
export function createdLine(tx: TransactionView): string {
  const method = tx.method === undefined ? '' : `${Object.hasOwn(METHOD_NAMES, tx.method) ? METHOD_NAMES[tx.method] : tx.method} `;
  const ids = tx.id !== undefined && tx.secureId !== undefined ? `${tx.id} (${tx.secureId})` : (tx.id ?? tx.secureId ?? '(no id in the answer)');
  const price = tx.amount === undefined ? '' : ` ${amount(tx.amount)}`;
  // a refusal's reason is the error line's to give (exit 7), after this one
  return safeText(`Created ${method}charge ${ids}${price} — ${tx.status ?? 'status not given'}`);
}

/** A command to run next, and what it is for ("the payer's page"). */
export interface Step {
  command: string;
  note?: string;
}

/** `pinvoice invoice <verb> <ref>`, with the run's own --profile, --base-url and --token-file, so it reaches the same server. */
export function commandFor(verb: string, ref: string, context: NextStepContext, extra = ''): string {
  const { profile, baseUrl, tokenFile } = context.connection ?? {};
  const flags = [['--profile', profile], ['--base-url', baseUrl], ['--token-file', tokenFile]]
    .flatMap(([flag, value]) => (value === undefined ? [] : [` ${flag} ${shellWord(value as string)}`])).join('');
  return safeText(`${invocation()} invoice ${verb} ${shellWord(ref)}${extra}${flags}`);
}

/** The commands that move the charge on from its status (none once it is paid, refused or over). */
export function nextSteps(tx: TransactionView, context: NextStepContext): Step[] {
  if (tx.ref === undefined) return [];
  const command = (verb: string, extra = '') => commandFor(verb, tx.ref ?? '', context, extra);
  const watch = { command: command('get', ' --watch') };
  if (tx.status === 'pending') return [...(tx.checkoutToken === undefined ? [] : [{ command: command('open'), note: "the payer's page" }]), watch];
  if (tx.status !== 'waiting_3ds') return [];
  const authenticate = context.sandbox
    ? { command: command('3ds', ' --sample'), note: 'sandbox values that authenticate' }
    : { command: command('3ds', ' --file <values.json>'), note: "the payer's 3-D Secure values" };
  return [authenticate, watch];
}

/** "Next: pinvoice invoice open 12  (the payer's page)  ·  pinvoice invoice get 12 --watch", or nothing to do. */
export function nextStepLine(tx: TransactionView, context: NextStepContext): string | undefined {
  const next = nextSteps(tx, context).map((step) => (step.note === undefined ? step.command : `${step.command}  (${step.note})`));
  return next.length === 0 ? undefined : `Next: ${next.join('  ·  ')}`;
}

/**
 * The created line, and the next step when there is one: on one line each, or (given a terminal's width)
 * each command on lines of its own that fit it, as the receipt shows them.
 */
export async function closingLines(tx: TransactionView, context: NextStepContext, columns?: number): Promise<string> {
  if (columns !== undefined && columns > 0) {
    const { stepLines } = await import('./receipt.js');
    const next = nextSteps(tx, context);
    return [createdLine(tx), ...(next.length === 0 ? [] : ['Next:', ...next.flatMap((step) => stepLines(step, columns))])].join('\n');
  }
  const next = nextStepLine(tx, context);
  return next === undefined ? createdLine(tx) : `${createdLine(tx)}\n${next}`;
}
