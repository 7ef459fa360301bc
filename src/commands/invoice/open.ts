// `pinvoice invoice open`: the payer's checkout page of a charge, opened in the browser ($BROWSER, else
// the platform's opener); its URL printed on stdout in any case, so scripts can always read it. With
// --print or --json only the URL; with no browser to open (no graphical session) the URL and why.
// A browser that fails is reported with exit 1, the URL still printed.
import { connect, whereOf } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { checkoutUrl } from '../../client/checkout-url.js';
import { openInBrowser } from './browser.js';
import { findCharge } from './find.js';
import type { OpenFlags } from './index.js';

export async function openInvoice(id: string, flags: OpenFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  const tx = await findCharge(client, id, out, whereOf(connection));
  if (tx.checkoutToken === undefined) throw new CliError(`the record of charge ${id.trim()} at ${connection.baseUrl} holds no checkout token (invoice.token_checkout): there is no checkout page to open`, EXIT.notFound);
  const url = checkoutUrl(connection.baseUrl, tx.checkoutToken);
  if (out.json) return out.jsonData({ url, token_checkout: tx.checkoutToken });
  out.data(url);
  if (flags.print) return;
  const launched = await openInBrowser(url);
  if (launched === undefined) return out.message('no browser to open here (no graphical session, and BROWSER is not set): open the URL above');
  if (!launched.opened) throw new CliError(`the browser could not open the page: ${launched.reason}. Open the URL above yourself (or set BROWSER, e.g. BROWSER="firefox --new-window")`, EXIT.unexpected);
  out.message(`opened in the browser (${launched.by})`);
}
