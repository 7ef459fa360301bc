// Postback delivery throughput: the dispatcher (outbox rows read from SQLite, signed, POSTed, every
// attempt recorded with a durable commit) against a baseline of the same signed POSTs sent straight
// from memory with the same concurrency, in the same run. Prints the ratio.
//   npm run bench            (or: npx tsx bench/postbacks.ts [events])
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bodySignature, signatureHeader } from '../src/domain/signature.js';
import { postJson } from '../src/base/post-json.js';
import { createApp } from '../src/server/app.js';
import { POSTBACK_DEFAULTS } from '../src/server/config.js';
import { eventBody } from '../src/server/postbacks/outbox.js';
import { monthOf } from '../src/server/store/port.js';
import { addCompany } from '../src/server/seed.js';
import { openStore } from '../src/server/store/index.js';

const CHARGES = Number(process.argv[2] ?? 300);
const TOKEN = 'pinv_bench_token_0123456789';

const receiver = createServer((request, response) => {
  request.resume();
  request.on('end', () => response.writeHead(200).end('{}'));
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/`;

const dir = mkdtempSync(join(tmpdir(), 'pinvoice-bench-'));
const db = join(dir, 'bench.db');

// Fill the outbox with the dispatcher off: CHARGES charges, each created and paid (2 events).
{
  const store = openStore(db);
  await addCompany(store, { token: TOKEN }, (n) => randomBytes(n), new Date());
  const app = createApp({ store, version: 'bench', postbacks: false, expiryCheckMs: 0 });
  for (let i = 0; i < CHARGES; i++) {
    const created = await app.inject({
      method: 'POST', url: '/api/v2/invoices', headers: { authorization: `Bearer ${TOKEN}` },
      payload: { method: 'pix', total_price_cents: 1990, postback_url: url, payer: { name: 'Fulano de Tal', email: 'f@example.com', cpf_cnpj: '529.982.247-25' }, items: [{ name: 'Camiseta', quantity: 1, unit_price: 1990 }] },
    });
    const { id } = created.json<{ data: { id: number } }>().data;
    await app.inject({ method: 'POST', url: `/api/v2/sandbox/invoices/${id}/pay`, headers: { authorization: `Bearer ${TOKEN}` } });
  }
  await app.close();
  await await store.close();
}

const store = openStore(db);
// The bodies the dispatcher sends: rebuilt from each event's snapshot, as it does.
const [company] = await store.companies.list();
if (!company) throw new Error('no company: the bench measures nothing');
const secret = company.webhook_secret;
const bodies: string[] = [];
for (const { id, invoice_id } of store.db.prepare<[], { id: number; invoice_id: number }>('SELECT id, invoice_id FROM events ORDER BY id').all()) {
  const event = await store.events.get(id);
  const aggregate = await store.invoices.aggregate(company.id, String(invoice_id), monthOf(new Date()));
  if (!event || !aggregate) throw new Error(`event ${id} or its charge is missing`);
  bodies.push(eventBody(company, aggregate, event));
}
const events = bodies.length;
if (events !== 2 * CHARGES) throw new Error(`the outbox holds ${events} events, not ${2 * CHARGES}: the bench measures nothing`);

// Baseline: the same bodies, signed and POSTed with the dispatcher's concurrency, nothing stored.
async function baseline(): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < bodies.length) {
      const body = bodies[next++] ?? '';
      const headers = {
        'content-type': 'application/json',
        'pinvoice-signature': signatureHeader(secret, Math.floor(Date.now() / 1000), body),
        'x-webhook-signature': bodySignature(secret, body),
      };
      await postJson(url, body, headers, 10_000);
    }
  };
  await Promise.all(Array.from({ length: POSTBACK_DEFAULTS.concurrency }, worker));
  return performance.now() - started;
}

async function dispatcher(): Promise<number> {
  const pending = store.db.prepare<[], { n: number }>("SELECT COUNT(*) AS n FROM events WHERE state = 'pending'");
  const started = performance.now();
  const app = createApp({ store, version: 'bench', expiryCheckMs: 0 });
  await app.ready();
  while ((pending.get()?.n ?? 0) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const elapsed = performance.now() - started;
  await app.close();
  return elapsed;
}

const base = await baseline();
const ours = await dispatcher();
const attempts = store.db.prepare<[], { n: number }>('SELECT COUNT(*) AS n FROM delivery_attempts').get()?.n ?? 0;
await store.close();
receiver.close();
rmSync(dir, { recursive: true, force: true });

const rate = (ms: number) => Math.round((events / ms) * 1000);
console.log(`postbacks: ${events} events (${CHARGES} charges × created, paid), ${attempts} attempts recorded`);
console.log(`  baseline (signed POSTs from memory): ${base.toFixed(0)} ms, ${rate(base)} events/s`);
console.log(`  dispatcher (outbox → POST → record): ${ours.toFixed(0)} ms, ${rate(ours)} events/s`);
console.log(`  ratio dispatcher / baseline: ${(ours / base).toFixed(2)}×`);
