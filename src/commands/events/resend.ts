// `pinvoice events resend`: an event queued again now, with a fresh retry budget.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import type { ResendFlags } from './index.js';

export async function resendEvent(id: string, flags: ResendFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const event = await client.resendEvent(id.trim(), flags.idempotencyKey);
  if (out.json) return out.jsonData(event);
  const { renderEvent } = await import('../../cli/render/events.js');
  out.data(renderEvent(event, out.palette));
  out.message(`queued: ${event.id} goes to ${event.url} now (follow it with \`pinvoice events list ${event.invoice_id}\`)`);
}
