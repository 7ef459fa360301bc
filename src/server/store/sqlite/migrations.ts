// Schema migrations, applied in order; PRAGMA user_version records how many have run.
// Never edit a migration that has shipped: add a new one.

export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE companies (
    id INTEGER PRIMARY KEY,
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
    is_custom INTEGER NOT NULL DEFAULT 0,
    webhook_secret TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE TABLE api_tokens (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    token_hash TEXT NOT NULL UNIQUE,
    hint TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX api_tokens_company ON api_tokens(company_id);
  CREATE TABLE customers (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    document TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (company_id, document)
  );
  CREATE TABLE invoices (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    secure_id TEXT NOT NULL UNIQUE,
    token_checkout TEXT NOT NULL UNIQUE,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    method TEXT NOT NULL,
    status TEXT NOT NULL,
    amount INTEGER NOT NULL,
    installments INTEGER NOT NULL,
    refunded_amount INTEGER NOT NULL DEFAULT 0,
    refused_reason TEXT,
    postback_url TEXT NOT NULL,
    ip TEXT,
    payer TEXT NOT NULL,
    items TEXT NOT NULL,
    fee TEXT NOT NULL,
    pix_code TEXT,
    pix_txid TEXT UNIQUE,
    boleto TEXT,
    card TEXT,
    expires_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    paid_at TEXT
  );
  CREATE INDEX invoices_company ON invoices(company_id, id);
  CREATE INDEX invoices_expiry ON invoices(status, expires_at);
  CREATE TABLE timeline (
    id INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    status TEXT NOT NULL,
    note TEXT NOT NULL,
    at TEXT NOT NULL
  );
  CREATE INDEX timeline_invoice ON timeline(invoice_id, id);
  CREATE TABLE refunds (
    id INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    amount INTEGER NOT NULL,
    reason TEXT,
    created_at TEXT NOT NULL
  );
  CREATE INDEX refunds_invoice ON refunds(invoice_id, id);
  CREATE TABLE financial_movements (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    type TEXT NOT NULL,
    amount INTEGER NOT NULL,
    balance TEXT NOT NULL,
    description TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX movements_invoice ON financial_movements(invoice_id, id);
  CREATE INDEX movements_company ON financial_movements(company_id, balance);
  CREATE TABLE idempotency_keys (
    company_id INTEGER NOT NULL REFERENCES companies(id),
    operation TEXT NOT NULL,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at TEXT NOT NULL,
    PRIMARY KEY (company_id, operation, key)
  );
  CREATE INDEX idempotency_created ON idempotency_keys(created_at);
  `,  // 2: postbacks. An outbox of events, written in the same transaction as the status change, and
  // every delivery attempt. `url` is frozen when the event is recorded: a retry never goes elsewhere.
  `
  CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    public_id TEXT NOT NULL UNIQUE,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    type TEXT NOT NULL,
    url TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL,
    state TEXT NOT NULL,
    tries INTEGER NOT NULL DEFAULT 0,
    next_attempt_at TEXT,
    delivered_at TEXT
  );
  CREATE INDEX events_invoice ON events(invoice_id, id);
  CREATE INDEX events_due ON events(state, next_attempt_at);
  CREATE TABLE delivery_attempts (
    id INTEGER PRIMARY KEY,
    event_id INTEGER NOT NULL REFERENCES events(id),
    url TEXT NOT NULL,
    started_at TEXT NOT NULL,
    duration_ms INTEGER NOT NULL,
    status_code INTEGER,
    error TEXT,
    response_excerpt TEXT
  );
  CREATE INDEX attempts_event ON delivery_attempts(event_id, id);
  `,
  // 3: production fidelity. The merchant's own reference and metadata; postback bodies recorded by
  // earlier versions rewritten to the production payload (id = the charge's id, the record under
  // `transaction`, invoice.failed for a refused card), so events still pending go out in the new
  // shape; remembered create answers rewritten to {data: …}, so a replay answers as a new create does.
  `
  ALTER TABLE invoices ADD COLUMN external_ref TEXT;
  ALTER TABLE invoices ADD COLUMN metadata TEXT;
  UPDATE events SET type = 'invoice.failed' WHERE type = 'invoice.refused';
  UPDATE events SET body = json_object(
    'id', body ->> '$.invoice_id',
    'invoice_id', body ->> '$.invoice_id',
    'event', type,
    'status', body ->> '$.status',
    'total', body ->> '$.total',
    'method', body ->> '$.method',
    'event_id', public_id,
    'created_at', body ->> '$.created_at',
    'paid_at', body ->> '$.data.paidAt',
    'transaction', body -> '$.data'
  ) WHERE body ->> '$.event_id' IS NULL;
  UPDATE idempotency_keys SET response = json_object('data', json_set(response,
    '$.invoice_id', response ->> '$.secureId',
    '$.qr_code_pix', response -> '$.pix.qrCode'
  )) WHERE operation = 'createInvoice' AND status_code = 200 AND response ->> '$.data' IS NULL;
  `,
  // 4: no derivative of a card number or security code is kept. Earlier versions hashed the raw create
  // request for Idempotency-Key; the hashes of card charges are dropped (marked unknown, see oncePerKey).
  `
  UPDATE idempotency_keys SET request_hash = 'unknown'
  WHERE operation = 'createInvoice' AND response ->> '$.data.paymentMethod' = 'credit_card';
  `,
  // 5: the server at scale. Balances and paid totals kept in the transaction of each movement and
  // payment (a read is one lookup, not a sum over the company's history); events keep a snapshot of
  // what changed instead of a copy of the record; events are claimed with a lease, so several
  // processes never deliver one twice; indexes only where a lookup needs them (partial where only
  // pending rows are looked for: the pix txid, inside the pix code and never looked up, loses its
  // unique index, which cost every create a write to a random page; the table is rebuilt for it;
  // invoices_company is not made again: every lookup of a charge goes by its id or its secureId).
  `
  CREATE TABLE company_totals (
    company_id INTEGER PRIMARY KEY REFERENCES companies(id),
    balance_pix INTEGER NOT NULL DEFAULT 0,
    balance_card INTEGER NOT NULL DEFAULT 0,
    balance_bank_slip INTEGER NOT NULL DEFAULT 0,
    paid_total INTEGER NOT NULL DEFAULT 0
  ) WITHOUT ROWID;
  INSERT INTO company_totals (company_id, balance_pix, balance_card, balance_bank_slip, paid_total)
  SELECT c.id,
    (SELECT COALESCE(SUM(amount), 0) FROM financial_movements m WHERE m.company_id = c.id AND m.balance = 'balance_pix'),
    (SELECT COALESCE(SUM(amount), 0) FROM financial_movements m WHERE m.company_id = c.id AND m.balance = 'balance_card'),
    (SELECT COALESCE(SUM(amount), 0) FROM financial_movements m WHERE m.company_id = c.id AND m.balance = 'balance_bank_slip'),
    (SELECT COALESCE(SUM(amount), 0) FROM invoices i WHERE i.company_id = c.id AND i.paid_at IS NOT NULL)
  FROM companies c;
  CREATE TABLE company_paid_months (
    company_id INTEGER NOT NULL REFERENCES companies(id),
    month TEXT NOT NULL,
    total INTEGER NOT NULL,
    PRIMARY KEY (company_id, month)
  ) WITHOUT ROWID;
  INSERT INTO company_paid_months (company_id, month, total)
  SELECT company_id, substr(paid_at, 1, 7), SUM(amount) FROM invoices WHERE paid_at IS NOT NULL GROUP BY 1, 2;
  DROP INDEX movements_company;
  CREATE TABLE invoices_v5 (
    id INTEGER PRIMARY KEY,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    secure_id TEXT NOT NULL UNIQUE,
    token_checkout TEXT NOT NULL UNIQUE,
    customer_id INTEGER NOT NULL REFERENCES customers(id),
    method TEXT NOT NULL,
    status TEXT NOT NULL,
    amount INTEGER NOT NULL,
    installments INTEGER NOT NULL,
    refunded_amount INTEGER NOT NULL DEFAULT 0,
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
  INSERT INTO invoices_v5 SELECT id, company_id, secure_id, token_checkout, customer_id, method, status, amount, installments,
    refunded_amount, refused_reason, postback_url, ip, payer, items, fee, pix_code, pix_txid, boleto, card, expires_at,
    created_at, updated_at, paid_at, external_ref, metadata FROM invoices;
  DROP TABLE invoices;
  ALTER TABLE invoices_v5 RENAME TO invoices;
  CREATE INDEX invoices_expiry ON invoices(expires_at) WHERE status = 'pending';
  ALTER TABLE events ADD COLUMN snapshot TEXT;
  ALTER TABLE events ADD COLUMN claimed_by TEXT;
  ALTER TABLE events ADD COLUMN lease_until TEXT;
  DROP INDEX events_due;
  CREATE INDEX events_due ON events(next_attempt_at) WHERE state = 'pending';
  `,
  // 6: people, not one shared secret. Tokens get a name (unique within a company; earlier ones are
  // named token-<id>), a read-only flag and a revocation time; each timeline entry records the token
  // that made the change (none for what the server does by itself, such as expiry).
  `
  ALTER TABLE api_tokens ADD COLUMN name TEXT;
  ALTER TABLE api_tokens ADD COLUMN read_only INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE api_tokens ADD COLUMN revoked_at TEXT;
  UPDATE api_tokens SET name = 'token-' || id;
  CREATE UNIQUE INDEX api_tokens_name ON api_tokens(company_id, name);
  ALTER TABLE timeline ADD COLUMN token_id INTEGER REFERENCES api_tokens(id);
  `,
  // 7: the sandbox's time travel and postback chaos. A company's clock runs clock_offset_ms ahead of
  // real time; its chaos rule is JSON; each attempt records the faults injected into it. The expiry
  // of one company's charges is looked up by company (its clock is its own).
  `
  ALTER TABLE companies ADD COLUMN clock_offset_ms INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE companies ADD COLUMN chaos TEXT;
  ALTER TABLE delivery_attempts ADD COLUMN injected TEXT;
  CREATE INDEX invoices_expiry_company ON invoices(company_id, expires_at) WHERE status = 'pending';
  `,
  // 8: finding charges (GET /api/v2/invoices without id). A page of a company's charges, newest first,
  // is a walk down one index from where the last page ended (created_at, then id: every index ends in
  // the rowid), so a deep page costs what the first does. The selective filters each have their own,
  // led by the company: the page is theirs to drive, and their charges come in the listing's order.
  // The payer's document goes by the customer (unique per company and document). A key finds one
  // charge (the pix code by its txid, the boleto line by its barcode): its index needs no order.
  // The expressions are spelled as sqlite/charges.ts queries them.
  `
  CREATE INDEX invoices_listed ON invoices(company_id, created_at);
  CREATE INDEX invoices_status ON invoices(company_id, status, created_at);
  CREATE INDEX invoices_customer ON invoices(company_id, customer_id, created_at);
  CREATE INDEX invoices_payer_email ON invoices(company_id, lower(payer ->> '$.email'), created_at);
  CREATE INDEX invoices_external_ref ON invoices(company_id, external_ref, created_at) WHERE external_ref IS NOT NULL;
  CREATE INDEX invoices_pix_txid ON invoices(company_id, pix_txid) WHERE pix_txid IS NOT NULL;
  CREATE INDEX invoices_boleto_barcode ON invoices(company_id, (boleto ->> '$.barcode')) WHERE boleto IS NOT NULL;
  `,
  // 9: token-keyed signatures. A company may key X-Webhook-Signature with one of its API tokens instead
  // of its webhook secret: the token's id, and a copy of the token itself (tokens are otherwise kept
  // hashed; this copy is what the server signs with, in this owner-only file, and is never shown).
  `
  ALTER TABLE companies ADD COLUMN signing_token_id INTEGER REFERENCES api_tokens(id);
  ALTER TABLE companies ADD COLUMN signing_token TEXT;
  `,
  // 10: when the postback queue is next due, without reading it whole. The events claimed now (a
  // lease set) are few, at most those in flight on every node: their own index; the others are found
  // in events_due's order (sqlite/repos.ts nextDue).
  `
  CREATE INDEX events_claimed ON events(lease_until) WHERE state = 'pending' AND lease_until IS NOT NULL;
  `,
  // 11: a charge found by its pix txid alone. A payer's bank fetches the code's location (/qr/v2/<txid>)
  // knowing no company; txids are drawn at random, 26 or more characters, so one index serves both that
  // lookup and the company's own ?pix_code= search (which narrows by company after).
  `
  DROP INDEX invoices_pix_txid;
  CREATE INDEX invoices_pix_txid ON invoices(pix_txid) WHERE pix_txid IS NOT NULL;
  `,
  // 12: the dashboard's sign-ins (sqlite/sign-ins.ts): a one-time link's code or a browser's session,
  // kept by the SHA-256 of its secret (never the secret), with the token it acts as and when it ends
  // (epoch ms; the expired are removed as new ones are added, by expiry's index).
  `
  CREATE TABLE dashboard_sign_ins (
    hash TEXT PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('link', 'session')),
    company_id INTEGER NOT NULL REFERENCES companies(id),
    token_id INTEGER NOT NULL REFERENCES api_tokens(id),
    expires_at INTEGER NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX dashboard_sign_ins_expiry ON dashboard_sign_ins(expires_at);
  `,
  // 13: a production record loaded by `serve --fixtures` (its `records`): the JSON text production sent,
  // answered as it is by every lookup of the charge (record.ts); null for serve's own charges
  `
  ALTER TABLE invoices ADD COLUMN production_record TEXT;
  `,
];
