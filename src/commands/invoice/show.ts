// How the invoice and sandbox commands show the charge they answer: the record, its QR code on a
// terminal, and (for `get` and `create`) its postback deliveries.
import type { Output } from '../../cli/output.js';
import type { Client } from '../../client/index.js';
import type { EventView } from '../../client/read/serve-answers.js';
import type { TransactionView } from '../../client/read/transaction.js';

export interface ShowFlags {
  /** --qr / --no-qr; not given: drawn on a terminal for a pending pix charge */
  qr?: boolean | undefined;
  /** the server's address, for the checkout page's URL */
  baseUrl?: string;
  /**
   * Writes what closes the output (messages: warnings, what was created, the next step): run after the
   * record, and before the pix code and QR that end it on a terminal, so that they stay on screen.
   */
  afterRecord?: (() => void) | undefined;
}

/**
 * The QR of a charge's pix code, as lines: drawn on a terminal for a pending charge, or wherever --qr
 * asks; never for a code that can no longer be paid (expired, canceled, paid…), which --qr is told.
 */
export async function pixQr(out: Output, tx: TransactionView, asked: boolean | undefined): Promise<string[] | undefined> {
  if (out.json || tx.pix === undefined || asked === false) return undefined;
  const { unpayableNote } = await import('../../cli/render/transaction-payment.js');
  const note = unpayableNote(tx);
  if (note !== undefined) {
    if (asked) out.message(`no QR (--qr): ${note}`);
    return undefined;
  }
  // a dumb terminal shows the QR's colour codes as text: only --qr draws there
  const onTerminal = out.stdoutIsTTY && process.env.TERM !== 'dumb';
  if (!asked && !(onTerminal && tx.status === 'pending')) return undefined;
  const { lines, width } = (await import('../../cli/render/qr.js')).drawQr(tx.pix.code);
  const { columns, rows } = process.stdout;
  if (out.stdoutIsTTY && columns > 0 && rows > 0 && (columns < width || rows < lines.length)) {
    out.message(`the QR takes ${width} columns and ${lines.length} lines, and this terminal shows ${columns}×${rows}: enlarge it to scan the QR whole`);
  }
  return lines;
}

/**
 * Shows a charge (with `baseUrl`, the URL of its checkout page); with `events`, its postback deliveries
 * too (the support view of `invoice get`). --json prints the record exactly as the gateway sent it. A QR
 * ends the output, its pix code just above it: once the record's tables have scrolled away, what the
 * payer needs is what stays on screen.
 */
export async function show(out: Output, tx: TransactionView, flags: ShowFlags, events?: EventView[]): Promise<void> {
  if (out.json) {
    out.jsonData(tx.raw);
    return flags.afterRecord?.();
  }
  const [{ renderTransaction }, { renderPayment }] = await Promise.all([import('../../cli/render/transaction.js'), import('../../cli/render/transaction-payment.js')]);
  const qr = await pixQr(out, tx, flags.qr);
  const checkout = flags.baseUrl === undefined || tx.checkoutToken === undefined
    ? undefined
    : (await import('../../client/checkout-url.js')).checkoutUrl(flags.baseUrl, tx.checkoutToken);
  const sections = [renderTransaction(tx, { palette: out.palette, checkoutUrl: checkout, payment: qr === undefined })];
  if (events) sections.push((await import('../../cli/render/events.js')).renderEventTable(events, out.palette));
  out.data(sections.join('\n\n'));
  flags.afterRecord?.();
  if (qr === undefined) return;
  out.data(`\n${renderPayment(tx, out.palette, undefined, true) ?? ''}`);
  out.drawing(qr.join('\n'));
}

/** The delivery history, when the server keeps one (a production gateway does not: then none is shown). */
export async function postbacksOf(client: Client, tx: TransactionView, out: Output): Promise<EventView[] | undefined> {
  if (out.json || tx.ref === undefined) return undefined;
  try {
    return (await client.listEvents(tx.ref)).events;
  } catch {
    return undefined;
  }
}
