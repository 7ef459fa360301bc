// `pinvoice invoice open`: the payer's checkout page of a charge, opened in the default browser; its
// URL printed instead with --print or --json, when there is no browser to open (no graphical session,
// or no opener), and in any case on stdout, so scripts can always read it.
import { spawn } from 'node:child_process';
import { connect, whereOf } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { checkoutUrl } from '../../client/checkout-url.js';
import { findCharge } from './find.js';
import type { OpenFlags } from './index.js';

/** The command that opens a URL in the default browser here, or undefined when there is none to try. */
function opener(url: string): [string, string[]] | undefined {
  if (process.env.BROWSER) return [process.env.BROWSER, [url]];
  if (process.platform === 'darwin') return ['open', [url]];
  if (process.platform === 'win32') return ['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]];
  // Linux and the BSDs: only with a graphical session (a terminal over SSH has none)
  if (!process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) return undefined;
  return ['xdg-open', [url]];
}

/** Starts the opener and resolves whether it started (the browser itself is left running on its own). */
function launch([command, args]: [string, string[]]): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', () => resolve(false));
    child.once('spawn', () => {
      child.unref();
      resolve(true);
    });
  });
}

export async function openInvoice(id: string, flags: OpenFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  const tx = await findCharge(client, id, out, whereOf(connection));
  if (tx.checkoutToken === undefined) throw new CliError(`the record of charge ${id.trim()} at ${connection.baseUrl} holds no checkout token (invoice.token_checkout): there is no checkout page to open`, EXIT.notFound);
  const url = checkoutUrl(connection.baseUrl, tx.checkoutToken);
  if (out.json) return out.jsonData({ url, token_checkout: tx.checkoutToken });
  const how = flags.print ? undefined : opener(url);
  const opened = how !== undefined && (await launch(how));
  out.data(url);
  if (!flags.print) out.message(opened ? 'opened in the default browser' : 'no browser to open here (no graphical session): open the URL above');
}
