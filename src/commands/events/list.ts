// `pinvoice events list`: every postback event of a charge, with each delivery attempt.
import { connect } from '../../cli/context.js';
import { createOutput } from '../../cli/output.js';
import type { EventsListFlags } from './index.js';

export async function listEvents(id: string, flags: EventsListFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const { raw, events } = await client.listEvents(id.trim());
  if (out.json) return out.jsonData(raw);
  const { renderAttempts, renderEventTable } = await import('../../cli/render/events.js');
  const attempts = renderAttempts(events, out.palette);
  out.data([renderEventTable(events, out.palette, `Postbacks of ${id.trim()}`), attempts].filter((s) => s !== null).join('\n\n'));
}
