// `pinvoice sandbox webhook-signing [show|token|secret]`: which key signs the company's
// X-Webhook-Signature. `token` makes it the token this command sends (the profile's, PINVOICE_TOKEN or
// --token-file), for handlers written for production that verify that header with their API key.
import type { SigningView } from '../../client/read/serve-answers.js';
import { connect, type Connection } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { safeText } from '../../cli/render/safe-text.js';
import { keyValueTable, section } from '../../cli/render/table.js';
import { SIGNING_ACTIONS, type SigningFlags } from './index.js';

/** Where the token this command sent came from, in the words of the connection flags. */
const tokenSource = ({ tokenFrom, profile }: Pick<Connection, 'tokenFrom' | 'profile'>) =>
  tokenFrom === 'profile' ? `the token of profile "${profile}"` : `the token in ${tokenFrom}`;

function render(out: Output, signing: SigningView): void {
  if (out.json) return out.jsonData(signing.raw);
  const token = signing.tokenName === undefined ? 'an API token' : `the API token "${safeText(signing.tokenName)}"${signing.tokenHint ? ` (${safeText(signing.tokenHint)})` : ''}`;
  const rows: [string, string][] = [
    ['X-Webhook-Signature', signing.key === 'token' ? out.palette.warn(`keyed with ${token}`) : 'keyed with the webhook secret'],
    ['Pinvoice-Signature', 'keyed with the webhook secret'],
  ];
  out.data(section('Webhook signing', keyValueTable(rows, out.palette), out.palette));
}

export async function webhookSigning(action = 'show', flags: SigningFlags): Promise<void> {
  if (!(SIGNING_ACTIONS as readonly string[]).includes(action)) throw usageError(`sandbox webhook-signing: unknown action "${action}"; use show, token or secret`);
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  if (action === 'show') return render(out, await client.signingShow());
  const signing = await client.signingSet(action === 'token' ? 'token' : 'secret');
  render(out, signing);
  if (action === 'token') out.message(`Postbacks' X-Webhook-Signature is now keyed with ${tokenSource(connection)}: verify it with that token (pinvoice webhooks verify --signed-with token).`);
}
