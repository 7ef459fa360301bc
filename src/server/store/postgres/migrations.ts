// PostgreSQL schema migrations, applied in order under an advisory lock (several nodes starting at
// once migrate once); pinvoice_schema records how many have run. The schema is SQLite's at its
// schema 6, in PostgreSQL's words: ids from sequences, times as ISO text (the answers show them as
// stored), JSON as text (its bytes and key order are the record's). Never edit a shipped migration.

export const PG_MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE companies (
    id BIGSERIAL PRIMARY KEY,
    cnpj TEXT NOT NULL,
    company_type TEXT NOT NULL,
    corporate_reason TEXT NOT NULL,
    fantasy_name TEXT NOT NULL,
    url_website TEXT NOT NULL,
    address TEXT NOT NULL,
    address_city TEXT NOT NULL,
    address_number TEXT NOT NULL,
    address_postal_code TEXT NOT NULL,
    address_province TEXT NOT NULL,
    address_state TEXT NOT NULL,
    bank_account TEXT NOT NULL,
    bank_agency TEXT NOT NULL,
    bank_digit TEXT NOT NULL,
    bank_name TEXT NOT NULL,
    bank_type TEXT NOT NULL,
    fees TEXT NOT NULL,
    blocked TEXT NOT NULL DEFAULT '{}',
    is_custom BOOLEAN NOT NULL DEFAULT false,
    webhook_secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE api_tokens (
    id BIGSERIAL PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id),
    token_hash TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    created_at TEXT NOT NULL,
    name TEXT,
    read_only BOOLEAN NOT NULL DEFAULT false,
    revoked_at TEXT
  );
  CREATE UNIQUE INDEX api_tokens_name ON api_tokens(company_id, name);
  CREATE TABLE company_totals (
    company_id BIGINT PRIMARY KEY REFERENCES companies(id),
    balance_pix BIGINT NOT NULL DEFAULT 0,
    balance_card BIGINT NOT NULL DEFAULT 0,
    balance_bank_slip BIGINT NOT NULL DEFAULT 0,
    paid_total BIGINT NOT NULL DEFAULT 0
  );
  CREATE TABLE company_paid_months (
    company_id BIGINT NOT NULL REFERENCES companies(id),
    month TEXT NOT NULL,
    total BIGINT NOT NULL,
    PRIMARY KEY (company_id, month)
  );
  CREATE TABLE customers (
    id BIGSERIAL PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id),
    document TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (company_id, document)
  );
  CREATE TABLE invoices (
    id BIGSERIAL PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id),
    secure_id TEXT NOT NULL UNIQUE,
    token_checkout TEXT NOT NULL UNIQUE,
    customer_id BIGINT NOT NULL REFERENCES customers(id),
    method TEXT NOT NULL,
    status TEXT NOT NULL,
    amount BIGINT NOT NULL,
    installments INTEGER NOT NULL,
    refunded_amount BIGINT NOT NULL DEFAULT 0,
    refused_reason TEXT,
    postback_url TEXT NOT NULL,
    ip TEXT,
    payer TEXT NOT NULL,
    items TEXT NOT NULL,
    fee TEXT NOT NULL,
    pix_code TEXT,
    pix_txid TEXT,
    boleto TEXT,
    card TEXT,
    expires_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    paid_at TEXT,
    external_ref TEXT,
    metadata TEXT
  );
  CREATE INDEX invoices_expiry ON invoices(expires_at) WHERE status = 'pending';
  CREATE TABLE timeline (
    id BIGSERIAL PRIMARY KEY,
    invoice_id BIGINT NOT NULL REFERENCES invoices(id),
    status TEXT NOT NULL,
    note TEXT NOT NULL,
    at TEXT NOT NULL,
    token_id BIGINT REFERENCES api_tokens(id)
  );
  CREATE INDEX timeline_invoice ON timeline(invoice_id, id);
  CREATE TABLE refunds (
    id BIGSERIAL PRIMARY KEY,
    invoice_id BIGINT NOT NULL REFERENCES invoices(id),
    amount BIGINT NOT NULL,
    reason TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX refunds_invoice ON refunds(invoice_id, id);
  CREATE TABLE financial_movements (
    id BIGSERIAL PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id),
    invoice_id BIGINT NOT NULL REFERENCES invoices(id),
    type TEXT NOT NULL,
    amount BIGINT NOT NULL,
    balance TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX movements_invoice ON financial_movements(invoice_id, id);
  CREATE TABLE idempotency_keys (
    company_id BIGINT NOT NULL REFERENCES companies(id),
    operation TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (company_id, operation, key)
  );
  CREATE INDEX idempotency_created ON idempotency_keys(created_at);
  CREATE TABLE events (
    id BIGSERIAL PRIMARY KEY,
    public_id TEXT NOT NULL,
    company_id BIGINT NOT NULL REFERENCES companies(id),
    invoice_id BIGINT NOT NULL REFERENCES invoices(id),
    type TEXT NOT NULL,
    url TEXT NOT NULL,
    body TEXT NOT NULL DEFAULT '',
    snapshot TEXT,
    created_at TEXT NOT NULL,
    state TEXT NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    delivered_at TEXT,
    claimed_by TEXT,
    lease_until TEXT,
    UNIQUE (public_id)
  );
  CREATE INDEX events_invoice ON events(invoice_id, id);
  CREATE INDEX events_due ON events(next_attempt_at) WHERE state = 'pending';
  CREATE TABLE delivery_attempts (
    id BIGSERIAL PRIMARY KEY,
    event_id BIGINT NOT NULL REFERENCES events(id),
    url TEXT NOT NULL,
    started_at TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    response_excerpt TEXT
  );
  CREATE INDEX attempts_event ON delivery_attempts(event_id, id);
  `,
  // 2: the sandbox's time travel and postback chaos (SQLite's schema 7).
  `
  ALTER TABLE companies ADD COLUMN clock_offset_ms BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE companies ADD COLUMN chaos TEXT;
  ALTER TABLE delivery_attempts ADD COLUMN injected TEXT;
  CREATE INDEX invoices_expiry_company ON invoices(company_id, expires_at) WHERE status = 'pending';
  `,
  // 3: finding charges (SQLite's schema 8): a page of a company's charges is a walk down one index from
  // where the last page ended, (created_at, id) at the end of each; the selective filters have their
  // own, led by the company; a key (pix txid, boleto barcode) finds one charge and needs no order.
  // The expressions are spelled as postgres/charges.ts queries them.
  `
  CREATE INDEX invoices_listed ON invoices(company_id, created_at, id);
  CREATE INDEX invoices_status ON invoices(company_id, status, created_at, id);
  CREATE INDEX invoices_customer ON invoices(company_id, customer_id, created_at, id);
  CREATE INDEX invoices_payer_email ON invoices(company_id, lower(payer::json ->> 'email'), created_at, id);
  CREATE INDEX invoices_external_ref ON invoices(company_id, external_ref, created_at, id) WHERE external_ref IS NOT NULL;
  CREATE INDEX invoices_pix_txid ON invoices(company_id, pix_txid) WHERE pix_txid IS NOT NULL;
  CREATE INDEX invoices_boleto_barcode ON invoices(company_id, (boleto::json ->> 'barcode')) WHERE boleto IS NOT NULL;
  `,
  // 4: token-keyed signatures (SQLite's schema 9): the token that keys X-Webhook-Signature instead of the
  // webhook secret, and the copy of it the server signs with (never shown).
  `
  ALTER TABLE companies ADD COLUMN signing_token_id BIGINT REFERENCES api_tokens(id);
  ALTER TABLE companies ADD COLUMN signing_token TEXT;
  `,
  // 5: when the postback queue is next due, without reading it whole (SQLite's schema 10): the events
  // claimed now are few and have their own index; the others come in events_due's order.
  `
  CREATE INDEX events_claimed ON events(lease_until) WHERE state = 'pending' AND lease_until IS NOT NULL;
  `,
  // 6: a charge found by its pix txid alone (SQLite's schema 11): a payer's bank fetches /qr/v2/<txid>
  // knowing no company; the company's ?pix_code= search narrows by company after.
  `
  DROP INDEX invoices_pix_txid;
  CREATE INDEX invoices_pix_txid ON invoices(pix_txid) WHERE pix_txid IS NOT NULL;
  `,
  // 7: the pix location's CA and leaves, kept in the database the nodes share (a SQLite server keeps
  // them in a folder beside its file): every node signs with the same CA, and a leaf of the same
  // hosts is the same on every node. Rows are written once (ON CONFLICT DO NOTHING, then read back).
  `
  CREATE TABLE pix_keys (
    name TEXT PRIMARY KEY,
    cert TEXT NOT NULL,
    private_key TEXT NOT NULL,
    updated_at TIMESTAMPTZ NOT NULL DEFAULT now()
  );
  `,
  // 8: the inspector's journal: one for every node of a team. Ids come from an
  // identity that is never reset (a clear keeps cursors valid); batches take an advisory lock, so ids
  // commit in order (postgres/journal.ts). (11 makes them each company's own.)
  `
  CREATE TABLE journal_entries (
    id BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    company_id BIGINT NOT NULL REFERENCES companies(id),
    at BIGINT NOT NULL,
    sandbox_at BIGINT NOT NULL,
    direction TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER,
    invoice_id BIGINT,
    request_body TEXT,
    response_body TEXT,
    detail TEXT NOT NULL
  );
  CREATE INDEX journal_company ON journal_entries(company_id, id);
  CREATE INDEX journal_invoice ON journal_entries(company_id, invoice_id, id) WHERE invoice_id IS NOT NULL;
  CREATE TABLE journal_state (
    company_id BIGINT PRIMARY KEY REFERENCES companies(id),
    entries BIGINT NOT NULL DEFAULT 0,
    dropped BIGINT NOT NULL DEFAULT 0,
    dropped_upto BIGINT NOT NULL DEFAULT 0
  );
  `,
  // 9: an entry's duration in a column of its own (it was a member of `detail`, where rows written
  // before keep it: postgres/journal.ts reads it from there when the column says 0)
  `
  ALTER TABLE journal_entries ADD COLUMN duration_ms DOUBLE PRECISION NOT NULL DEFAULT 0;
  `,
  // 10: the dashboard's sign-ins (SQLite's schema 12), shared by the nodes: a link made on one is taken
  // on another, and a session lasts whichever node answers. Kept by the SHA-256 of the secret, never the
  // secret; expires_at in epoch ms.
  `
  CREATE TABLE dashboard_sign_ins (
    hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('link', 'session')),
    company_id BIGINT NOT NULL REFERENCES companies(id),
    token_id BIGINT NOT NULL REFERENCES api_tokens(id),
    expires_at BIGINT NOT NULL
  );
  CREATE INDEX dashboard_sign_ins_expiry ON dashboard_sign_ins(expires_at);
  `,
  // 11: journal ids are each company's own, 1, 2, 3… (numbered across companies, they told a company
  // how many requests the others made): journal_state.last_id counts them, entries are numbered again
  // company by company in their order, and the key is (company_id, id)
  `
  ALTER TABLE journal_state ADD COLUMN last_id BIGINT NOT NULL DEFAULT 0;
  ALTER TABLE journal_entries ALTER COLUMN id DROP IDENTITY;
  ALTER TABLE journal_entries DROP CONSTRAINT journal_entries_pkey;
  UPDATE journal_entries e SET id = r.n
    FROM (SELECT id, row_number() OVER (PARTITION BY company_id ORDER BY id) AS n FROM journal_entries) r WHERE e.id = r.id;
  ALTER TABLE journal_entries ADD PRIMARY KEY (company_id, id);
  DROP INDEX journal_company;
  INSERT INTO journal_state (company_id, entries, last_id) SELECT company_id, count(*), max(id) FROM journal_entries GROUP BY company_id
    ON CONFLICT (company_id) DO UPDATE SET last_id = excluded.last_id;
  UPDATE journal_state SET dropped_upto = 0;
  `,
  // 12: a production record loaded by `serve --fixtures` (SQLite's schema 13): the JSON text
  // production sent, answered as it is by every lookup of the charge; null for serve's own charges
  `
  ALTER TABLE invoices ADD COLUMN IF NOT EXISTS production_record TEXT;
  `,
  // 13: the journal keeps a body many entries answered once (a charge's record polled: 3 KB an entry,
  // the whole write of a GET): journal_bodies holds it under a ref of the node that sent it, and an
  // entry names it in response_ref (response_body null); a body no entry names is removed after a grace
  `
  CREATE TABLE IF NOT EXISTS journal_bodies (ref TEXT PRIMARY KEY, body TEXT NOT NULL, sent_at BIGINT NOT NULL);
  ALTER TABLE journal_entries ADD COLUMN IF NOT EXISTS response_ref TEXT;
  CREATE INDEX IF NOT EXISTS journal_response_ref ON journal_entries(response_ref) WHERE response_ref IS NOT NULL;
  `,
  // 14: no foreign key from a charge's rows to a row that every charge shares (its company, its payer,
  // the token that made it). PostgreSQL checks such a key by locking the shared row (FOR KEY SHARE):
  // ten creates at once lock it together, each lock a new MultiXact of all its holders, and creates
  // grew slower the longer they ran (without the keys: 1.06× the rate in the first rounds of 3 s,
  // 1.3–1.7× in the later ones, 270 µs less of PostgreSQL's CPU a create). pinvoice deletes none of
  // these rows (clearCharges empties the charges' tables together); a charge's own rows keep their
  // keys to the charge.
  `
  ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_company_id_fkey;
  ALTER TABLE invoices DROP CONSTRAINT IF EXISTS invoices_customer_id_fkey;
  ALTER TABLE customers DROP CONSTRAINT IF EXISTS customers_company_id_fkey;
  ALTER TABLE timeline DROP CONSTRAINT IF EXISTS timeline_token_id_fkey;
  ALTER TABLE events DROP CONSTRAINT IF EXISTS events_company_id_fkey;
  ALTER TABLE financial_movements DROP CONSTRAINT IF EXISTS financial_movements_company_id_fkey;
  ALTER TABLE idempotency_keys DROP CONSTRAINT IF EXISTS idempotency_keys_company_id_fkey;
  `,
  // 15: the journal bounded in bytes as well as entries (serve --journal-max-bytes): each entry's size,
  // each company's sum of them, and the bytes of the bodies kept once (journal_room, one row); an
  // entry's size is its texts' characters and 64 for the rest of its row (postgres/journal.ts ENTRY_OVERHEAD)
  `
  ALTER TABLE journal_entries ADD COLUMN IF NOT EXISTS size INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE journal_state ADD COLUMN IF NOT EXISTS bytes BIGINT NOT NULL DEFAULT 0;
  UPDATE journal_entries SET size = 64 + length(path) + length(detail) + COALESCE(length(request_body), 0) + COALESCE(length(response_body), 0);
  UPDATE journal_state s SET bytes = COALESCE((SELECT SUM(e.size) FROM journal_entries e WHERE e.company_id = s.company_id), 0);
  CREATE TABLE IF NOT EXISTS journal_room (id INTEGER PRIMARY KEY CHECK (id = 1), bodies BIGINT NOT NULL DEFAULT 0);
  INSERT INTO journal_room (id, bodies) SELECT 1, COALESCE(SUM(length(body)), 0) FROM journal_bodies ON CONFLICT (id) DO NOTHING;
  `,
  // 16: no foreign key from a journal entry to its company, for 14's reason, an entry a row: every
  // request's entry locked its company's row (FOR KEY SHARE), and the nodes' batches, each its own
  // transaction, made a MultiXact of each lock. pinvoice deletes no company; clear and clearCharges
  // empty the journal's tables themselves.
  `
  ALTER TABLE journal_entries DROP CONSTRAINT IF EXISTS journal_entries_company_id_fkey;
  `,
  // 17: the journal's texts compressed with LZ4, not pglz, where the server has it (PostgreSQL 14 and
  // later, built with lz4, as Debian's is): a create's entry (its request and the record answered,
  // ~3 KB) is compressed on its way into the row, and pglz took most of the batch's INSERT
  // (pg_stat_statements: 70 → 27 µs of PostgreSQL's time a create). Rows written before stay as
  // they are, read alike; a server without LZ4 keeps pglz.
  `
  DO $$ BEGIN
    IF EXISTS (SELECT 1 FROM pg_settings WHERE name = 'default_toast_compression' AND 'lz4' = ANY (enumvals)) THEN
      EXECUTE 'ALTER TABLE journal_entries ALTER COLUMN request_body SET COMPRESSION lz4, ALTER COLUMN response_body SET COMPRESSION lz4, '
        || 'ALTER COLUMN detail SET COMPRESSION lz4';
      EXECUTE 'ALTER TABLE journal_bodies ALTER COLUMN body SET COMPRESSION lz4';
    END IF;
  END $$;
  `,
];
