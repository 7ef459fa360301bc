// How the invoice and sandbox commands show the charge they answer: the record, its QR code on a
// terminal, and (for `get` and `create`) its postback deliveries.
import type { Output } from '../../cli/output.js';
import type { Client } from '../../client/index.js';
import type { EventView } from '../../client/read/serve-answers.js';
import type { TransactionView } from '../../client/read/transaction.js';

/**
 * Shows a charge (with `baseUrl`, the URL of its checkout page); with `events`, its postback deliveries
 * too (the support view of `invoice get`). --json prints the record exactly as the gateway sent it.
 */
export async function show(out: Output, tx: TransactionView, flags: { qr?: boolean | undefined; baseUrl?: string }, events?: EventView[]): Promise<void> {
  if (out.json) return out.jsonData(tx.raw);
  const { renderTransaction } = await import('../../cli/render/transaction.js');
  const wantQr = flags.qr ?? (out.stdoutIsTTY && tx.status === 'pending');
  let qr: string | undefined;
  if (wantQr && tx.pix) qr = (await import('../../cli/render/qr.js')).renderQr(tx.pix.code);
  const checkout = flags.baseUrl === undefined || tx.checkoutToken === undefined
    ? undefined
    : (await import('../../client/checkout-url.js')).checkoutUrl(flags.baseUrl, tx.checkoutToken);
  const sections = [renderTransaction(tx, { palette: out.palette, qr, checkoutUrl: checkout })];
  if (events) sections.push((await import('../../cli/render/events.js')).renderEventTable(events, out.palette));
  out.data(sections.join('\n\n'));
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
