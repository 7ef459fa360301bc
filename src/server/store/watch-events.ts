// Both engines tell the dispatcher after a commit that recorded or requeued an event: the writing
// repositories, with those two calls noticed.
import type { Writes } from './port.js';

export function watchEvents(writes: Writes, noticed: () => void): Writes {
  return {
    ...writes,
    events: {
      ...writes.events,
      insert: async (event) => {
        noticed();
        return writes.events.insert(event);
      },
      requeue: async (id, at) => {
        noticed();
        return writes.events.requeue(id, at);
      },
    },
  };
}
