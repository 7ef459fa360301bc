// How the invoice and sandbox commands show the charge they answer: the record, its QR code on a
// terminal, and (for `get` and `create`) its postback deliveries.
import type { WebhookEvent } from '../../api/postbacks.js';
import type { Transaction } from '../../api/schemas.js';
import type { Output } from '../../cli/output.js';
import type { Client } from '../../client/index.js';

/** Shows a charge (with `baseUrl`, the URL of its checkout page); with `events`, its postback deliveries too (the support view of `invoice get`). */
export async function show(out: Output, tx: Transaction, flags: { qr?: boolean | undefined; baseUrl?: string }, events?: WebhookEvent[]): Promise<void> {
  if (out.json) return out.jsonData(tx);
  const { renderTransaction } = await import('../../cli/render/transaction.js');
  const wantQr = flags.qr ?? (out.stdoutIsTTY && tx.status === 'pending');
  let qr: string | undefined;
  if (wantQr && tx.pix) qr = (await import('../../cli/render/qr.js')).renderQr(tx.pix.qrCode);
  const checkout = flags.baseUrl === undefined ? undefined : (await import('../../client/checkout-url.js')).checkoutUrl(flags.baseUrl, tx.invoice.token_checkout);
  const sections = [renderTransaction(tx, { palette: out.palette, qr, checkoutUrl: checkout })];
  if (events) sections.push((await import('../../cli/render/events.js')).renderEventTable(events, out.palette));
  out.data(sections.join('\n\n'));
}

/** The delivery history, when the server keeps one (a production gateway may not: then none is shown). */
export async function postbacksOf(client: Client, tx: Transaction, out: Output): Promise<WebhookEvent[] | undefined> {
  if (out.json) return undefined;
  try {
    return await client.listEvents(tx.id);
  } catch {
    return undefined;
  }
}
