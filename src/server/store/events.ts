// The postback outbox: events recorded with each status change, and every delivery attempt.
import type { Db } from './database.js';

/** pending: to be sent (again); delivered: a 2xx came back; failed: retries used up; no_url: nowhere to send */
export type EventState = 'pending' | 'delivered' | 'failed' | 'no_url';

export interface EventRow {
  id: number;
  public_id: string;
  company_id: number;
  invoice_id: number;
  type: string;
  url: string;
  body: string;
  created_at: string;
  state: EventState;
  tries: number;
  next_attempt_at: string | null;
  delivered_at: string | null;
}

export interface AttemptRow {
  id: number;
  event_id: number;
  url: string;
  started_at: string;
  duration_ms: number;
  status_code: number | null;
  error: string | null;
  response_excerpt: string | null;
}

export type NewEvent = Omit<EventRow, 'id' | 'tries' | 'delivered_at'>;
export type NewAttempt = Omit<AttemptRow, 'id'>;

export function createEventRepo(db: Db) {
  const insert = db.prepare(`
    INSERT INTO events (public_id, company_id, invoice_id, type, url, body, created_at, state, next_attempt_at)
    VALUES (@public_id, @company_id, @invoice_id, @type, @url, @body, @created_at, @state, @next_attempt_at)`);
  const byInvoice = db.prepare<[number], EventRow>('SELECT * FROM events WHERE invoice_id = ? ORDER BY id');
  const byPublicId = db.prepare<[number, string], EventRow>('SELECT * FROM events WHERE company_id = ? AND public_id = ?');
  const byId = db.prepare<[number], EventRow>('SELECT * FROM events WHERE id = ?');
  // The head of each charge's queue: no earlier event of the same charge is still waiting, so the
  // events of one charge go out in order.
  const HEAD = `e.state = 'pending'
    AND NOT EXISTS (SELECT 1 FROM events p WHERE p.invoice_id = e.invoice_id AND p.id < e.id AND p.state = 'pending')`;
  const due = db.prepare<[string, number], EventRow>(`
    SELECT e.* FROM events e WHERE ${HEAD} AND e.next_attempt_at <= ? ORDER BY e.next_attempt_at, e.id LIMIT ?`);
  const nextDue = db.prepare<[], { at: string | null }>(`SELECT MIN(e.next_attempt_at) AS at FROM events e WHERE ${HEAD}`);
  const addAttempt = db.prepare(`
    INSERT INTO delivery_attempts (event_id, url, started_at, duration_ms, status_code, error, response_excerpt)
    VALUES (@event_id, @url, @started_at, @duration_ms, @status_code, @error, @response_excerpt)`);
  const attempts = db.prepare<[number], AttemptRow>('SELECT * FROM delivery_attempts WHERE event_id = ? ORDER BY id');
  const settle = db.prepare(`
    UPDATE events SET state = @state, tries = tries + 1, next_attempt_at = @next_attempt_at,
      delivered_at = COALESCE(@delivered_at, delivered_at)
    WHERE id = @id`);
  const requeue = db.prepare("UPDATE events SET state = 'pending', tries = 0, next_attempt_at = ? WHERE id = ?");
  // Told synchronously, inside the writer's transaction: a listener should only schedule work for later.
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());

  return {
    insert(event: NewEvent): void {
      insert.run(event);
      changed();
    },
    forInvoice: (invoiceId: number): EventRow[] => byInvoice.all(invoiceId),
    find: (companyId: number, publicId: string): EventRow | undefined => byPublicId.get(companyId, publicId),
    get: (id: number): EventRow | undefined => byId.get(id),
    due: (now: string, limit: number): EventRow[] => due.all(now, limit),
    /** when the next pending event is due, or null when none is */
    nextDueAt: (): string | null => nextDue.get()?.at ?? null,
    attempts: (eventId: number): AttemptRow[] => attempts.all(eventId),
    /** Records one attempt and its consequence for the event, together. */
    recordAttempt(attempt: NewAttempt, outcome: { state: EventState; next_attempt_at: string | null; delivered_at: string | null }): void {
      db.transaction(() => {
        addAttempt.run(attempt);
        settle.run({ id: attempt.event_id, ...outcome });
      }).immediate();
    },
    /** Sends the event again from a fresh retry budget (history kept). */
    requeue(id: number, at: string): void {
      requeue.run(at, id);
      changed();
    },
    /** Calls listener whenever an event becomes due to send; returns the unsubscribe. */
    onDue(listener: () => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export type EventRepo = ReturnType<typeof createEventRepo>;
