// What clearCharges() empties and resets, in SQL both engines speak: the tables of charges and of what
// hangs off them (children first, for the foreign keys), then each company back to its first state.
// Companies, their tokens and secrets are kept, and so are the dashboard's sign-ins (they hang off
// tokens, not charges). Used by `pinvoice/testing`'s reset().

export const CHARGE_TABLES = [
  'delivery_attempts',
  'events',
  'refunds',
  'timeline',
  'financial_movements',
  'idempotency_keys',
  'invoices',
  'customers',
  'company_paid_months',
] as const;

/**
 * The inspector's journal goes too; its ids go on from where they were (a cursor held across a reset stays
 * valid: each company's count of them, journal_state.last_id, stays). PostgreSQL keeps it in these
 * tables; SQLite in a file of its own, emptied by its store.
 */
export const JOURNAL_TABLES = ['journal_entries', 'journal_bodies'] as const;
export const RESET_JOURNAL = 'UPDATE journal_state SET entries = 0, dropped = 0, dropped_upto = 0';
/** (PostgreSQL) the journal's room counted empty: its bytes by company and of the bodies kept once (postgres/journal.ts) */
export const RESET_JOURNAL_ROOM = ['UPDATE journal_room SET bodies = 0', 'UPDATE journal_state SET bytes = 0'];

export const RESET_COMPANIES = [
  'UPDATE company_totals SET balance_pix = 0, balance_card = 0, balance_bank_slip = 0, paid_total = 0',
  'UPDATE companies SET clock_offset_ms = 0, chaos = NULL',
];

/** SQLite has no TRUNCATE: one DELETE a table, in order. */
export const CLEAR_CHARGES = [...CHARGE_TABLES.map((table) => `DELETE FROM ${table}`), ...RESET_COMPANIES];
