// What a test reads of `pinvoice serve`'s journal to wait for the state a step stands for (a watcher has
// read a charge and polled it) rather than for a while: a slow start would otherwise let the step after
// it come first, and the test pass without exercising what it names.
import { eventually } from './receiver.js';

/** The journal's answered GETs of a charge's record by id (`invoice get`, and each poll of its --watch). */
async function readsOf(baseUrl: string, token: string, id: number): Promise<number> {
  const query = new URLSearchParams({ method: 'GET', path: `/api/v2/invoices/${id}`, limit: '500' });
  const answer = await fetch(`${baseUrl}/api/v2/sandbox/requests?${query}`, { headers: { authorization: `Bearer ${token}` } });
  if (!answer.ok) throw new Error(`the journal answered ${answer.status}: ${await answer.text()}`);
  return ((await answer.json()) as { data: unknown[] }).data.length;
}

/**
 * Counts a charge's reads from now on: `seen(n)` resolves once n more are in the journal. An entry is
 * written once its request was answered, so `seen(2)` after starting a watch means it read the charge
 * and polled it once, both answered before whatever the test does next.
 */
export async function readsFrom(baseUrl: string, token: string, id: number) {
  const before = await readsOf(baseUrl, token, id);
  return {
    seen: (count: number, timeoutMs = 15_000) =>
      eventually(async () => (await readsOf(baseUrl, token, id)) >= before + count, timeoutMs, `${count} reads of charge ${id} in the journal`),
  };
}
