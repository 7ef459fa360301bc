// `pinvoice pix pay` (sandbox): a payer's bank app on a dynamic pix code. It verifies the code as
// `pix verify` does (refusing anything that does not hold, and a charge not ATIVA, naming its status),
// shows merchant, amount and txid, asks on a terminal, then pays the code's charge through the sandbox
// of the configured server: the charge turns paid and its postbacks go out as for any payment.
import { connect, whereOf } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import { findCharge } from '../invoice/find.js';
import { show } from '../invoice/show.js';
import { readCodeArgument } from './decode.js';
import type { PixPayFlags } from './index.js';
import { verificationError, verifyCode } from './verify.js';

export async function payPixCode(given: string, flags: PixPayFlags): Promise<void> {
  const out = createOutput(flags);
  // the profile first: a missing login is said before anything is fetched or asked; --ca trusted by
  // the API's connection too (a `serve --tls` signs its locations and its API with the same CA)
  const { trustedRoots } = await import('../../client/pix-location/trust.js');
  const ca = flags.ca === undefined ? undefined : (await trustedRoots(flags.ca)).pem;
  const { client, connection } = await connect(flags, { ca });
  const { code, decoded } = await readCodeArgument(given, out, 'pay');
  const verification = await verifyCode(decoded, flags);
  const { renderChecklist, chargeRows } = await import('../../cli/render/pix-verify.js');
  // stdout is for the charge once paid: the checklist and the summary are messages
  out.message(renderChecklist(verification, out.palette));
  const refused = verificationError(decoded, verification);
  if (refused) throw refused;
  const rows = chargeRows(decoded, verification);
  out.message(rows.map(([name, value]) => `${name.padEnd(8)}  ${value}`).join('\n'));
  const [merchant, amount] = rows.map(([, value]) => value);
  const { confirmAction } = await import('../../cli/prompts/confirm.js');
  await confirmAction(`Pay ${amount} to ${merchant}?`, flags);
  const charge = await findCharge(client, code, out, whereOf(connection));
  const paid = await client.sandbox(charge.secureId ?? charge.id ?? code, 'pay');
  await show(out, paid, { qr: false });
}
