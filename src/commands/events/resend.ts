// `pinvoice events resend`: an event queued again now, with a fresh retry budget.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import type { ResendFlags } from './index.js';

export async function resendEvent(id: string, flags: ResendFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const event = await client.resendEvent(id.trim(), flags.idempotencyKey);
  if (out.json) return out.jsonData(event.raw);
  const [{ renderEvent }, { safeText }] = await Promise.all([import('../../cli/render/events.js'), import('../../cli/render/safe-text.js')]);
  out.data(renderEvent(event, out.palette));
  // the server's text, made safe before the message (whose guard keeps colour codes when colour is on)
  const follow = event.invoiceId === undefined ? '' : ` (follow it with \`pinvoice events list ${safeText(event.invoiceId)}\`)`;
  out.message(`queued: ${safeText(event.id ?? id.trim())} goes to ${safeText(event.url ?? 'its URL')} now${follow}`);
}
