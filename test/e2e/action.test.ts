// The GitHub Action (action.yml): its steps run with bash the way the runner runs them
// (test/support/action-runner.ts), then a later step of the job uses the server it started through
// the variables it exported, as a merchant's CI job would. On the run's engine: a database file of
// its own, or a PostgreSQL URL given as the `engine` input.
import { createServer, type Server } from 'node:net';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { newJob, readAction, REPO, runAction, runStep, type ActionRun, type Job } from '../support/action-runner.js';
import { tempHome } from '../support/cli.js';
import { ENGINE, postgresDatabase } from '../support/engine.js';
import { validPix } from '../support/server.js';

const started: number[] = [];
afterEach(async () => {
  // a failed test may leave a server: stopped here, as the job's end would
  for (const pid of started.splice(0)) await stop(pid);
});

/** Whether the process runs (a zombie, left to a PID 1 that does not reap it, does not). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ')[0] !== 'Z';
  } catch {
    return true;
  }
}

async function stop(pid: number): Promise<void> {
  if (!running(pid)) return;
  process.kill(pid, 'SIGTERM');
  for (let i = 0; i < 100 && running(pid); i++) await new Promise((resolve) => setTimeout(resolve, 100));
}

/** The engine input for this run: the default (a SQLite file) or a new PostgreSQL database. */
const engineInput = async (): Promise<Record<string, string>> => (ENGINE === 'postgres' ? { engine: await postgresDatabase() } : {});

async function act(job: Job, inputs: Record<string, string>): Promise<ActionRun> {
  const run = await runAction(job, inputs);
  if (job.env.PINVOICE_SERVE_PID) started.push(Number(job.env.PINVOICE_SERVE_PID));
  return run;
}

/** A later step of the job: a bash script with what the action exported. */
const laterStep = (job: Job, run: string) => runStep(job, { name: 'test', shell: 'bash', run });

const everything = (run: ActionRun) => run.steps.map((step) => `${step.stdout}\n${step.stderr}`).join('\n');

describe('action.yml', () => {
  it('is a composite action whose steps are bash scripts of action/, with its inputs passed through env', () => {
    const action = readAction();
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs)).toEqual(expect.arrayContaining(['port', 'seed', 'fixtures', 'engine']));
    expect(action.inputs.port?.default).toBe('4010');
    expect(action.inputs.engine?.default).toBe('sqlite');
    for (const step of action.runs.steps) {
      expect(step.shell).toBe('bash');
      expect(step.run).toMatch(/^bash "\$GITHUB_ACTION_PATH\/action\/[a-z-]+\.sh"$/);
      // an input spliced into a script's text could run as code: they go through env only
      expect(step.run).not.toContain('${{');
    }
  });

  it('installs, starts serve in the background, waits for it and exports what the job’s next steps use', async () => {
    const job = newJob(tempHome());
    const run = await act(job, { port: '0', seed: '42', ...(await engineInput()) });
    expect(run.ok, everything(run)).toBe(true);
    const env = job.env;
    expect(env).toMatchObject({
      PINVOICE_BASE_URL: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+$/),
      PINVOICE_TOKEN: expect.stringMatching(/^pinv_test_/),
      PINVOICE_WEBHOOK_SECRET: expect.stringMatching(/^whsec_/),
      PINVOICE_SERVE_PID: expect.stringMatching(/^\d+$/),
    });
    expect(run.outputs).toMatchObject({ 'base-url': env.PINVOICE_BASE_URL, token: env.PINVOICE_TOKEN, 'webhook-secret': env.PINVOICE_WEBHOOK_SECRET, pid: env.PINVOICE_SERVE_PID });
    expect(statSync(run.outputs['env-file'] ?? '').mode & 0o777).toBe(0o600);

    // the token and the secret are masked before anything prints them, and printed nowhere else
    const logged = everything(run).split('\n');
    for (const secret of [env.PINVOICE_TOKEN, env.PINVOICE_WEBHOOK_SECRET] as string[]) {
      expect(logged.filter((line) => line.includes(secret))).toEqual([`::add-mask::${secret}`]);
    }

    // a later step: `pinvoice` on the PATH, reaching the server through the exported variables alone
    writeFileSync(join(job.workspace, 'pix.json'), JSON.stringify(validPix()));
    const created = await laterStep(job, 'pinvoice invoice create --file pix.json --json');
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ status: 'pending', amount: 1990, paymentMethod: 'pix' });
    const secret = await laterStep(job, 'test "$(pinvoice webhooks secret)" = "$PINVOICE_WEBHOOK_SECRET"');
    expect(secret.code, secret.stderr).toBe(0);

    const stopped = await laterStep(job, `bash ${JSON.stringify(join(REPO, 'action/stop.sh'))}`);
    expect(stopped.stdout).toMatch(/pinvoice serve \(pid \d+\) stopped/);
    expect(running(Number(env.PINVOICE_SERVE_PID))).toBe(false);
    expect(readFileSync(env.PINVOICE_SERVE_LOG ?? '', 'utf8')).toMatch(/SIGTERM: finishing requests in flight and closing the database/);
  });

  it('the seed input reaches serve: two jobs with the same seed get the same token and secret', async () => {
    const runs = [];
    for (const _ of [1, 2]) {
      const job = newJob(tempHome());
      const run = await act(job, { port: '0', seed: 'ci-7', ...(ENGINE === 'postgres' ? await engineInput() : { engine: 'memory' }) });
      expect(run.ok, everything(run)).toBe(true);
      runs.push(job.env);
    }
    expect(runs[1]?.PINVOICE_TOKEN).toBe(runs[0]?.PINVOICE_TOKEN);
    expect(runs[1]?.PINVOICE_WEBHOOK_SECRET).toBe(runs[0]?.PINVOICE_WEBHOOK_SECRET);
    expect(runs[1]?.PINVOICE_BASE_URL).not.toBe(runs[0]?.PINVOICE_BASE_URL);
  });

  it('the fixtures input is read from the working-directory input; its companies and charges are there', async () => {
    const job = newJob(tempHome());
    const shop = 'pinv_test_action_fixture_shop_0001';
    mkdirSync(join(job.workspace, 'ci'));
    writeFileSync(join(job.workspace, 'ci', 'charges.json'), JSON.stringify({
      companies: [{ key: 'shop', token: shop, name: 'Loja do CI' }],
      charges: [{ company: 'shop', external_id: 'order-1', state: 'paid', method: 'pix', amount: 2500 }],
    }));
    const run = await act(job, { port: '0', 'working-directory': 'ci', fixtures: 'charges.json', ...(await engineInput()) });
    expect(run.ok, everything(run)).toBe(true);
    const listed = await laterStep(job, `PINVOICE_TOKEN=${shop} pinvoice invoice list --json`);
    expect(listed.code, listed.stderr).toBe(0);
    expect(JSON.parse(listed.stdout)).toEqual([expect.objectContaining({ status: 'paid', amount: 2500 })]);
  });

  it('a fixed token input is the exported token, and never printed', async () => {
    const token = 'pinv_test_ci_fixed_action_token_0001';
    const job = newJob(tempHome());
    const run = await act(job, { port: '0', token, ...(await engineInput()) });
    expect(run.ok, everything(run)).toBe(true);
    expect(job.env.PINVOICE_TOKEN).toBe(token);
    expect(everything(run).split('\n').filter((line) => line.includes(token))).toEqual([`::add-mask::${token}`, `::add-mask::${token}`]);
    const who = await laterStep(job, 'pinvoice whoami --json');
    expect(who.code, who.stderr).toBe(0);
  });

  it('a server that cannot start fails the step with its log, exports nothing and leaves nothing running', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as { port: number }).port);
    try {
      const job = newJob(tempHome());
      const run = await act(job, { port, ...(await engineInput()) });
      expect(run.ok).toBe(false);
      const start = run.steps.at(-1);
      expect(start?.code).toBe(1);
      expect(start?.stdout).toContain(`port ${port} on 127.0.0.1 is already in use`);
      expect(start?.stdout).toMatch(/::error title=pinvoice::pinvoice serve stopped \(exit code \d+\) before it answered/);
      expect(job.env).toEqual({});
    } finally {
      taken.close();
    }
  });

  it('bad inputs are refused, naming the input, before anything starts; a URL’s password is not repeated', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ engine: 'mysql://ci:hunter2@db/pinvoice' }, /input engine must be sqlite, memory or a postgres:\/\/ URL, not "mysql:\/\/…"/],
      [{ port: 'eighty' }, /input port must be a port number/],
      [{ fixtures: 'missing.json' }, /input fixtures: no file missing\.json/],
      [{ timeout: '0' }, /input timeout must be a whole number of seconds/],
    ];
    for (const [inputs, said] of cases) {
      const job = newJob(tempHome());
      const run = await act(job, inputs);
      expect(run.ok).toBe(false);
      expect(run.steps.at(-1)?.stdout).toMatch(said);
      expect(everything(run)).not.toContain('hunter2');
      expect(job.env).toEqual({});
    }
  });
});
