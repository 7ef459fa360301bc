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

/** The commands that move the charge on from its status (none once it is paid, refused or over). */
function steps(tx: TransactionView, ref: string, context: NextStepContext): string[] {
  const { profile, baseUrl, tokenFile } = context.connection ?? {};
  const flags = [['--profile', profile], ['--base-url', baseUrl], ['--token-file', tokenFile]]
    .flatMap(([flag, value]) => (value === undefined ? [] : [` ${flag} ${shellWord(value as string)}`])).join('');
  const command = (verb: string, extra = '') => `${invocation()} invoice ${verb} ${shellWord(ref)}${extra}${flags}`;
  const watch = command('get', ' --watch');
  if (tx.status === 'pending') return [...(tx.checkoutToken === undefined ? [] : [`${command('open')}  (the payer's page)`]), watch];
  if (tx.status !== 'waiting_3ds') return [];
  const authenticate = context.sandbox
    ? `${command('3ds', ' --sample')}  (sandbox values that authenticate)`
    : `${command('3ds', ' --file <values.json>')}  (the payer's 3-D Secure values)`;
  return [authenticate, watch];
}

/** "Next: pinvoice invoice open 12  (the payer's page)  ·  pinvoice invoice get 12 --watch", or nothing to do. */
export function nextStepLine(tx: TransactionView, context: NextStepContext): string | undefined {
  if (tx.ref === undefined) return undefined;
  const next = steps(tx, tx.ref, context);
  return next.length === 0 ? undefined : safeText(`Next: ${next.join('  ·  ')}`);
}

/** The created line, and the next step when there is one. */
export function closingLines(tx: TransactionView, context: NextStepContext): string {
  const next = nextStepLine(tx, context);
  return next === undefined ? createdLine(tx) : `${createdLine(tx)}\n${next}`;
}
