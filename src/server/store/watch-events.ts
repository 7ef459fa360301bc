// Both engines tell the dispatchers after a commit that changed when an event is due: the writing
// repositories, with the calls that do noticed (a new event, a requeue, a retry scheduled, claims
// given up). On PostgreSQL the notice reaches every node, so an idle node need not poll.
import type { Writes } from './port.js';

export function watchEvents(writes: Writes, noticed: () => void, changed: () => void = () => undefined): Writes {
  return {
    ...writes,
    events: {
      ...writes.events,
      insert: async (event) => {
        // every change of a charge records an event: what the checkout pages of this process listen for
        changed();
        // an event with nowhere to go (no postback_url) is never due: no dispatcher needs to hear of it
        if (event.state === 'pending') noticed();
        return writes.events.insert(event);
      },
      requeue: async (id, at) => {
        noticed();
        return writes.events.requeue(id, at);
      },
      recordAttempt: async (attempt, outcome, node) => {
        if (outcome.state === 'pending') noticed();
        return writes.events.recordAttempt(attempt, outcome, node);
      },
      release: async (id, node) => {
        noticed();
        return writes.events.release(id, node);
      },
      shiftDue: async (companyId, ms, notBefore) => {
        noticed();
        return writes.events.shiftDue(companyId, ms, notBefore);
      },
      releaseClaims: async (node) => {
        noticed();
        return writes.events.releaseClaims(node);
      },
    },
  };
}
