// The store: one database, its repositories, and the transaction helper they share.
import { createCompanyRepo } from './companies.js';
import { MEMORY, openDatabase, type Db } from './database.js';
import { createEventRepo } from './events.js';
import { createIdempotencyRepo } from './idempotency.js';
import { createInvoiceRepo } from './invoices.js';

export interface Store {
  db: Db;
  /** true when this open created the database (a new file, or :memory:) */
  created: boolean;
  path: string;
  companies: ReturnType<typeof createCompanyRepo>;
  invoices: ReturnType<typeof createInvoiceRepo>;
  idempotency: ReturnType<typeof createIdempotencyRepo>;
  events: ReturnType<typeof createEventRepo>;
  /** Runs fn in one IMMEDIATE transaction: all of it is written, or none. */
  transaction<T>(fn: () => T): T;
  close(): void;
}

export function openStore(path: string = MEMORY): Store {
  const { db, created } = openDatabase(path);
  return {
    db,
    created,
    path,
    companies: createCompanyRepo(db),
    invoices: createInvoiceRepo(db),
    idempotency: createIdempotencyRepo(db),
    events: createEventRepo(db),
    transaction: <T>(fn: () => T): T => db.transaction(fn).immediate(),
    close: () => {
      if (db.open) db.close();
    },
  };
}
