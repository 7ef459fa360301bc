// No acknowledged invoice is lost under kill -9: the built `pinvoice serve` on one database file is
// SIGKILLed, 20 times, in the middle of a stream of concurrent creates. Every charge it answered 200
// must be found again after the restart, with the id and the status it was created with. Requests in
// flight at the kill fail, and were never acknowledged: they may or may not exist.
import { existsSync, readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { call, dbFor, killAll, mapLimit, pixBody, removeWorkDirs, sleep, startServe, workDir } from '../support/processes.js';

const TOKEN = 'pinv_test_crash_safety_token_01';
const ROUNDS = 20;
/** more rounds, up to this many, while fewer than MIN_ACKNOWLEDGED creates were acknowledged (a loaded machine) */
const MAX_ROUNDS = 40;
const CLIENTS = 8;
/** acknowledged creates over all rounds, at the least: below that the test proves little */
const MIN_ACKNOWLEDGED = 300;

interface Acknowledged {
  round: number;
  id: number;
  secureId: string;
  status: string;
}

afterEach(killAll);
afterAll(removeWorkDirs);

/** Reads every acknowledged charge back; answers one line per charge that is missing or changed. */
async function lost(base: string, acknowledged: Acknowledged[]): Promise<string[]> {
  const problems = await mapLimit(acknowledged, CLIENTS, async (ack) => {
    const got = await call(base, TOKEN, 'GET', `/api/v2/invoices/${ack.secureId}`);
    if (got.status !== 200) return `${ack.secureId} (id ${ack.id}, round ${ack.round}): HTTP ${got.status} ${JSON.stringify(got.body)}`;
    const { id, secureId, status } = got.body;
    if (id !== ack.id || secureId !== ack.secureId || status !== ack.status) {
      return `${ack.secureId} (round ${ack.round}): created as id ${ack.id} ${ack.status}, read back as id ${id} ${secureId} ${status}`;
    }
    return undefined;
  });
  return problems.filter((problem): problem is string => problem !== undefined);
}

describe('serve killed with SIGKILL in the middle of concurrent creates', () => {
  it(`loses no acknowledged invoice over ${ROUNDS} (or more) kills, and reuses no id`, async () => {
    const { dir, env } = workDir('pinvoice-crash-');
    const db = await dbFor(dir, 'crash');
    const args = ['--port', '0', '--db', db, '--token', TOKEN];
    const acknowledged: Acknowledged[] = [];
    const refused: string[] = [];
    let previous: Acknowledged[] = [];
    const perRound: number[] = [];

    let round = 0;
    for (; round < MAX_ROUNDS && (round < ROUNDS || acknowledged.length < MIN_ACKNOWLEDGED); round++) {
      const node = await startServe(args, env);
      // the pid is the server's node process itself, not a shell that would survive the kill
      if (existsSync(`/proc/${node.pid}/cmdline`)) expect(readFileSync(`/proc/${node.pid}/cmdline`, 'utf8')).toContain('pinvoice.js\0serve');
      // the previous round's acknowledged charges, read back after the restart
      expect(await lost(node.url, previous), `after the kill of round ${round - 1}`).toEqual([]);

      const current = round;
      const mine: Acknowledged[] = [];
      let killed = false;
      let firstAck: () => void = () => undefined;
      const acked = new Promise<void>((resolve) => (firstAck = resolve));
      const client = async () => {
        while (!killed) {
          let answer;
          try {
            answer = await call(node.url, TOKEN, 'POST', '/api/v2/invoices', pixBody());
          } catch {
            return; // the server died with this request in flight: never acknowledged
          }
          const data = answer.body?.data;
          if (answer.status === 200 && typeof data?.secureId === 'string') {
            mine.push({ round: current, id: data.id, secureId: data.secureId, status: data.status });
            firstAck();
          } else {
            refused.push(`round ${current}: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
          }
        }
      };
      const clients = Array.from({ length: CLIENTS }, client);
      // the kill comes 50 to 300 ms into the stream of creates (counted from the first answer, so that
      // a slow first request on a loaded machine does not leave a round empty)
      await Promise.race([acked, sleep(5_000)]);
      await sleep(50 + Math.random() * 250);
      const exit = await node.kill('SIGKILL');
      killed = true;
      expect(exit).toEqual({ code: null, signal: 'SIGKILL' });
      await Promise.all(clients);
      acknowledged.push(...mine);
      perRound.push(mine.length);
      previous = mine;
    }

    const last = await startServe(args, env);
    try {
      expect(await lost(last.url, previous), `after the kill of round ${round - 1}`).toEqual([]);
      // and everything once more, on one last start
      expect(await lost(last.url, acknowledged)).toEqual([]);
    } finally {
      await last.kill('SIGTERM');
    }
    // the server answered every request it finished with a 200: nothing else came back
    expect(refused).toEqual([]);
    expect(new Set(acknowledged.map((ack) => ack.id)).size, 'integer ids handed out twice').toBe(acknowledged.length);
    expect(new Set(acknowledged.map((ack) => ack.secureId)).size, 'secureIds handed out twice').toBe(acknowledged.length);
    expect(acknowledged.every((ack) => ack.status === 'pending')).toBe(true);
    console.info(`crash-safety: ${acknowledged.length} acknowledged creates in ${round} rounds: ${perRound.join(' ')}`);
    expect(acknowledged.length, `acknowledged per round: ${perRound.join(' ')}`).toBeGreaterThanOrEqual(MIN_ACKNOWLEDGED);
  }, 120_000);
});
