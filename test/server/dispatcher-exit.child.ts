// The process of dispatcher-exit.test.ts (run under tsx, with an IPC channel): the app over a store of
// either engine (argv: its --db, and the receiver's URL), delivering one postback and with another in
// flight when the test says stop; then it lets go of the channel, closes the app and the store, writes
// what still holds it, and must end by itself. Anything of theirs left running (a timer, a socket, a
// LISTEN client) keeps it.
import { randomBytes } from 'node:crypto';
import { createApp } from '../../src/server/app.js';
import { addCompany } from '../../src/server/seed.js';
import { connectStore } from '../../src/server/store/index.js';

const [db, receiver] = process.argv.slice(2) as [string, string];
const token = 'pinv_test_dispatcher_exit_token';
const payer = { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' };
const tell = (error: unknown) => process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);

const store = await connectStore(db);
await addCompany(store, { token }, (n) => randomBytes(n), new Date());
// a receiver that never answers holds its attempt for the whole timeout, unless stop() cuts it off
const app = createApp({ version: 'test', store, logError: tell, logLine: () => undefined, postbacks: { attempts: 3, baseDelayMs: 50, timeoutMs: 60_000 } });
const url = await app.listen({ host: '127.0.0.1', port: 0 });
for (const path of ['answered', 'hangs']) {
  const created = await fetch(`${url}/api/v2/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ method: 'pix', total_price_cents: 1990, postback_url: `${receiver}/${path}`, payer }),
  });
  if (!created.ok) throw new Error(`create answered ${created.status}: ${await created.text()}`);
}

process.once('message', () => {
  process.disconnect();
  // still here by then, something holds the process: say what (this timer does not hold it)
  setTimeout(() => tell(`still running 2 s after the stop, held by: ${process.getActiveResourcesInfo().join(', ')}`), 2000).unref();
  void (async () => {
    await app.close();
    await store.close();
    // what holds the process once both are closed, by kind: the test's exit bound cannot see a short timer
    process.stdout.write(`${JSON.stringify(process.getActiveResourcesInfo())}\n`);
  })().catch(tell);
});
process.send?.('created');
