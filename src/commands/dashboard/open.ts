// `pinvoice dashboard`: asks the server for a one-time sign-in link (a `pinvoice serve` extension: a
// gateway without it is told as such, exit 4), prints it on stdout and opens it in the browser, as
// `invoice open` does a checkout page. The link signs in once, within 10 minutes; the token itself is
// never in it.
import { connect } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { openInBrowser } from '../invoice/browser.js';
import type { DashboardFlags } from './index.js';

export async function openDashboard(flags: DashboardFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const link = await client.dashboardLink();
  if (out.json) return out.jsonData({ url: link.url, expires_at: link.expiresAt ?? null });
  out.data(link.url);
  if (flags.print) return;
  const launched = await openInBrowser(link.url);
  if (launched === undefined) return out.message('no browser to open here (no graphical session, and BROWSER is not set): open the link above, once, within 10 minutes');
  if (!launched.opened) throw new CliError(`the browser could not open the dashboard: ${launched.reason}. Open the link above yourself, once, within 10 minutes (or set BROWSER)`, EXIT.unexpected);
  out.message(`opened in the browser (${launched.by}); the link is spent once it signs in`);
}
