// `pinvoice invoice open`: the URL of the payer's page of a charge.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import type { OpenFlags } from './index.js';

/** Prints the payer's page of a charge: the public view, keyed by its unguessable checkout token. */
export async function openInvoice(id: string, flags: OpenFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  const tx = await client.getInvoice(id);
  const url = `${connection.baseUrl}/api/v2/public/invoices/${tx.invoice.token_checkout}`;
  if (out.json) out.jsonData({ url, token_checkout: tx.invoice.token_checkout });
  else out.data(url);
}
