// How the invoice and sandbox commands show the charge they answer: the record, its QR code on a
// terminal, and (for `get` and `create`) its postback deliveries.
import type { Output } from '../../cli/output.js';
import type { Client } from '../../client/index.js';
import type { EventView } from '../../client/read/serve-answers.js';
import type { TransactionView } from '../../client/read/transaction.js';
import type { Receipt } from '../../cli/render/receipt.js';

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
 * Whether a charge's pix QR is drawn: on a terminal for a pending charge, or wherever --qr asks; never for
 * a code that can no longer be paid (expired, canceled, paid…), which --qr is told.
 */
async function wantsQr(out: Output, tx: TransactionView, asked: boolean | undefined): Promise<boolean> {
  if (out.json || tx.pix === undefined || asked === false) return false;
  const { unpayableNote } = await import('../../cli/render/transaction-payment.js');
  const note = unpayableNote(tx);
  if (note !== undefined) {
    if (asked) out.message(`no QR (--qr): ${note}`);
    return false;
  }
  return asked === true || (out.stdoutIsTTY && tx.status === 'pending');
}

/** The QR of a charge's pix code, as lines (see wantsQr), saying so when the terminal is too small to show it whole. */
export async function pixQr(out: Output, tx: TransactionView, asked: boolean | undefined): Promise<string[] | undefined> {
  if (tx.pix === undefined || !(await wantsQr(out, tx, asked))) return undefined;
  const { lines, width } = (await import('../../cli/render/qr.js')).drawQr(tx.pix.code, out.qrStyle());
  const { columns, rows } = process.stdout;
  if (out.stdoutIsTTY && columns > 0 && rows > 0 && (columns < width || rows < lines.length)) {
    out.message(`the QR takes ${width} columns and ${lines.length} lines, and this terminal shows ${columns}×${rows}: enlarge it to scan the QR whole`);
  }
  return lines;
}

/** Whether a command answers with a receipt rather than the whole record: on a terminal, without --json or --full. */
export const wantsReceipt = (out: Output, flags: { full?: boolean | undefined }) => out.stdoutIsTTY && !out.json && flags.full !== true;

/**
 * A receipt (charge-receipt.ts) laid out for this terminal, with the charge's QR when it is drawn. A QR
 * whose quiet zone and the prompt under it do not fit the screen's height (version 7 and up on 24 lines:
 * production's longer codes) is drawn without its top quiet row where the terminal's own background is
 * light and stands in for it; on a dark one that row is needed (a phone finds no edge without it), so
 * the QR is drawn whole and the prompt will scroll its top away, which the user is told first.
 */
export async function showReceipt(out: Output, tx: TransactionView, receipt: Receipt, asked: boolean | undefined): Promise<void> {
  const [{ layoutReceipt }, { terminalHeight, terminalWidth }, { receiptQr }] = await Promise.all([
    import('../../cli/render/receipt.js'), import('../../cli/render/width.js'), import('../../cli/render/qr.js'),
  ]);
  const code = tx.pix?.code;
  const style = code !== undefined && (await wantsQr(out, tx, asked)) ? out.qrStyle() : undefined;
  let drawn: string[] = [];
  const draw = style === undefined || code === undefined ? undefined : receiptQr(code, style);
  const qr = draw === undefined ? undefined : (compact: boolean) => {
    const drawing = draw(compact);
    drawn = drawing.lines;
    return drawing;
  };
  const screen = { columns: terminalWidth(), rows: terminalHeight() };
  const lines = layoutReceipt(receipt, screen, qr);
  if (drawn.length >= screen.rows && out.stdoutIsTTY) {
    const { invocation } = await import('../../cli/invocation.js');
    const watch = tx.ref === undefined ? '' : `, or scan it while \`${invocation()} invoice get ${tx.ref} --watch\` keeps it on screen`;
    out.message(`the QR takes ${drawn.length} lines and this terminal shows ${screen.rows}: the prompt will scroll its top away; enlarge the terminal${watch}`);
  }
  out.drawing(lines.join('\n'));
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
  // only pinvoice serve keeps one, and it says so on every answer: a production gateway is not asked (a 404 in its logs)
  if (out.json || tx.ref === undefined || !(await client.isPinvoiceServe())) return undefined;
  try {
    return (await client.listEvents(tx.ref)).events;
  } catch {
    return undefined;
  }
}
