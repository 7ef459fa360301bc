// A company's own time (the sandbox clock): its clock runs `clock_offset_ms` ahead of real time, and
// everything that depends on time for that company follows it (timestamps written, pix expiry, boleto
// due dates, the paid month, retry schedules). The postback queue itself runs on real time, the one
// clock every process shares: an event is due at the real time of its company time.
import type { ServerContext } from '../invoices/context.js';
import type { Company, Writes } from '../store/port.js';

const shifted = (iso: string, ms: number) => new Date(Date.parse(iso) + ms).toISOString();

/** A transaction of a company whose clock is ahead: the events it records are due at their real time. */
function onRealQueue(tx: Writes, offsetMs: number): Writes {
  if (offsetMs === 0) return tx;
  return {
    ...tx,
    events: {
      ...tx.events,
      insert: (event) => tx.events.insert({ ...event, next_attempt_at: event.next_attempt_at && shifted(event.next_attempt_at, -offsetMs) }),
      requeue: (id, at) => tx.events.requeue(id, shifted(at, -offsetMs)),
    },
  };
}

/**
 * The context of one company's work: its clock, and transactions whose events go on the real-time
 * queue. Made from the server's context (a company's context given is first taken back to it).
 */
export function companyContext(given: ServerContext, company: Pick<Company, 'clock_offset_ms'>): ServerContext {
  const ctx = given.serverContext ?? given;
  const offset = company.clock_offset_ms;
  if (offset === 0) return { ...ctx, clock: ctx.realClock, serverContext: ctx };
  return {
    ...ctx,
    clock: () => new Date(ctx.realClock().getTime() + offset),
    transaction: (fn) => ctx.transaction((tx) => fn(onRealQueue(tx, offset))),
    serverContext: ctx,
  };
}

/** An instant of the queue (real time) as the company's clock reads it (null stays null). */
export function companyTime<T extends string | null>(company: Pick<Company, 'clock_offset_ms'>, iso: T): T {
  return (iso === null || company.clock_offset_ms === 0 ? iso : shifted(iso, company.clock_offset_ms)) as T;
}
