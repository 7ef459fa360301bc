// Runs the steps of the repository's composite action (action.yml) the way GitHub's runner does: each
// `run:` written to a file and run by `bash --noprofile --norc -eo pipefail <file>` from the step's
// working directory; `${{ … }}` expressions substituted first; a fresh GITHUB_ENV, GITHUB_OUTPUT and
// GITHUB_PATH file per step, read after it and applied to the steps after it; the first failing step
// ends the action. Only the expressions the action uses are known here: another one fails the test.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parse } from 'yaml';

export const REPO = resolve(new URL('../..', import.meta.url).pathname);

interface Input { description?: string; default?: string; required?: boolean }
interface Step { name?: string; id?: string; shell?: string; run?: string; env?: Record<string, string>; 'working-directory'?: string }
export interface ActionFile {
  inputs: Record<string, Input>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

export const readAction = (): ActionFile => parse(readFileSync(join(REPO, 'action.yml'), 'utf8')) as ActionFile;

export interface StepResult {
  name: string;
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A job in the making: its workspace, runner temp folder, and what its steps exported so far. */
export interface Job {
  workspace: string;
  runnerTemp: string;
  /** the variables GITHUB_ENV set, for every later step */
  env: Record<string, string>;
  /** the folders GITHUB_PATH added, newest first */
  path: string[];
  /** the job's own environment (HOME and the like) */
  base: Record<string, string>;
}

export function newJob(base: Record<string, string> = {}): Job {
  return { workspace: mkdtempSync(join(tmpdir(), 'pinvoice-workspace-')), runnerTemp: mkdtempSync(join(tmpdir(), 'pinvoice-runner-temp-')), env: {}, path: [], base };
}

/** `NAME=value` lines and `NAME<<DELIMITER` blocks, as GITHUB_ENV and GITHUB_OUTPUT hold them. */
export function readCommandFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block?.[1] && block[2]) {
      const end = lines.indexOf(block[2], i + 1);
      if (end < 0) throw new Error(`no closing ${block[2]} for ${block[1]}`);
      out[block[1]] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) {
      out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
    } else if (line.trim() !== '') {
      throw new Error(`not a NAME=value line: ${line}`);
    }
  }
  return out;
}

export interface Context {
  inputs: Record<string, string>;
  job: Job;
  steps: Record<string, Record<string, string>>;
}

/** `${{ inputs.x }}`, `${{ github.action_path }}`, `${{ runner.temp }}`, `${{ steps.id.outputs.x }}`. */
export function substitute(text: string, context: Context): string {
  return text.replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, (_, expression: string) => {
    const [scope, name, ...rest] = expression.split('.');
    if (scope === 'inputs' && name !== undefined && rest.length === 0 && name in context.inputs) return context.inputs[name] ?? '';
    if (expression === 'github.action_path') return REPO;
    if (expression === 'github.workspace') return context.job.workspace;
    if (expression === 'runner.temp') return context.job.runnerTemp;
    if (scope === 'steps' && name !== undefined && rest[0] === 'outputs' && rest.length === 2) return context.steps[name]?.[rest[1] ?? ''] ?? '';
    throw new Error(`the runner emulation does not know the expression \${{ ${expression} }}`);
  });
}

/** One `shell: bash` step with the job's environment; its exports applied to the job afterwards. */
export async function runStep(job: Job, step: Step, context: Context = { inputs: {}, job, steps: {} }): Promise<StepResult & { outputs: Record<string, string> }> {
  if (step.shell !== 'bash' || step.run === undefined) throw new Error(`step "${step.name}": only run steps in bash are emulated`);
  const files = mkdtempSync(join(job.runnerTemp, '_runner_file_commands-'));
  const [envFile, outputFile, pathFile, script] = ['env', 'output', 'path', 'step.sh'].map((name) => join(files, name)) as [string, string, string, string];
  for (const file of [envFile, outputFile, pathFile]) writeFileSync(file, '');
  writeFileSync(script, substitute(step.run, context));
  const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, substitute(String(value), context)]));
  const env = {
    PATH: [...job.path, process.env.PATH].join(':'),
    ...job.base,
    CI: 'true', GITHUB_ACTIONS: 'true', RUNNER_TEMP: job.runnerTemp, GITHUB_WORKSPACE: job.workspace, GITHUB_ACTION_PATH: REPO,
    ...job.env,
    ...stepEnv,
    GITHUB_ENV: envFile, GITHUB_OUTPUT: outputFile, GITHUB_PATH: pathFile,
  };
  const cwd = resolve(job.workspace, substitute(step['working-directory'] ?? '.', context));
  const result = await bash(script, env, cwd, step.name ?? step.id ?? 'run');
  Object.assign(job.env, readCommandFile(readFileSync(envFile, 'utf8')));
  job.path.unshift(...readFileSync(pathFile, 'utf8').split('\n').filter(Boolean).reverse());
  return { ...result, outputs: readCommandFile(readFileSync(outputFile, 'utf8')) };
}

function bash(script: string, env: Record<string, string | undefined>, cwd: string, name: string): Promise<StepResult> {
  return new Promise((done, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ name, code, stdout, stderr });
    });
  });
}

export interface ActionRun {
  ok: boolean;
  steps: StepResult[];
  /** the action's outputs, from its steps' */
  outputs: Record<string, string>;
}

/** Every step of action.yml in order, the inputs given over their defaults; the first failure ends the run. */
export async function runAction(job: Job, given: Record<string, string> = {}): Promise<ActionRun> {
  const action = readAction();
  for (const name of Object.keys(given)) if (!(name in action.inputs)) throw new Error(`action.yml has no input "${name}"`);
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([name, input]) => [name, given[name] ?? input.default ?? '']));
  const context: Context = { inputs, job, steps: {} };
  const steps: StepResult[] = [];
  for (const step of action.runs.steps) {
    const result = await runStep(job, step, context);
    steps.push(result);
    if (step.id) context.steps[step.id] = result.outputs;
    if (result.code !== 0) return { ok: false, steps, outputs: {} };
  }
  const outputs = Object.fromEntries(Object.entries(action.outputs).map(([name, output]) => [name, substitute(output.value, context)]));
  return { ok: true, steps, outputs };
}
