// A process that embeds the server (pinvoice/testing, a merchant's suite) ends by itself once it has
// stopped it: nothing of the postback dispatcher outlives its stop, on either engine, even with a
// postback delivered (its keep-alive connection kept) and another one in flight to a receiver that
// never answers. Run in a child process of its own, since only a process's end shows what is left.
import { fork, type ChildProcess } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { ENGINE, engineDb } from '../support/engine.js';
import { startReceiver, type Receiver } from '../support/receiver.js';

const CHILD = new URL('./dispatcher-exit.child.ts', import.meta.url).pathname;
/** What ending may take once the stop is asked for (76–503 ms seen; the attempt in flight would hold it 60 s). */
const BOUND_MS = 3000;

let receiver: Receiver | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  child?.kill('SIGKILL');
  await receiver?.close();
});

/** The child's exit code (or signal), or 'still running' when it has not ended within ms. */
function ended(running: ChildProcess, ms: number): Promise<number | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('still running'), ms);
    running.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve(code ?? String(signal));
    });
  });
}

describe(`the postback dispatcher on ${ENGINE}, stopped with a postback in flight`, () => {
  it('leaves nothing that keeps the process: no timer once closed, and it ends by itself, telling no error', async () => {
    receiver = await startReceiver((request) => (request.path.endsWith('/hangs') ? 'hang' : 200));
    let stdout = '';
    let stderr = '';
    const running = fork(CHILD, [await engineDb(':memory:'), receiver.url], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    child = running;
    running.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    running.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await new Promise((resolve, reject) => {
      running.once('message', resolve);
      running.once('exit', (code) => reject(new Error(`the child ended (${code}) before creating its charges: ${stderr}`)));
    });
    // both charges' invoice.created: one answered, one in flight now, never to be answered
    const got = await receiver.waitFor(2);
    expect(got.map((r) => r.path.split('/').at(-1)).sort()).toEqual(['answered', 'hangs']);
    await new Promise((resolve) => setTimeout(resolve, 200)); // the dispatcher idle by then, its next look set
    const asked = performance.now();
    running.send('stop');
    const code = await ended(running, BOUND_MS);
    expect(code, `${Math.round(performance.now() - asked)} ms after the stop; stderr: ${stderr}`).toBe(0);
    expect(stderr).toBe('');
    // just closed, it held its stdio and sockets a turn from closed (the exit above says they closed); no timer of any length
    const held = JSON.parse(stdout) as string[];
    expect(held.filter((kind) => kind !== 'PipeWrap' && !kind.startsWith('TCP'))).toEqual([]);
  });
});
