// The suites of examples/testing run as a user runs them: the package as `npm pack` makes it, placed in
// the example's node_modules as npm would (so `pinvoice/testing` resolves through the package's name,
// its exports and its declaration files), each runner started by its npm script. The copy sits under
// .vitest-tmp/ in the repository: the package's own dependencies and the runners (vitest, jest,
// typescript: the repository's devDependencies) resolve from the repository's node_modules, so nothing is
// downloaded and no native module is rebuilt. The examples use SQLite: one run is enough.
import { spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE } from '../support/engine.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const EXAMPLE = join(ROOT, 'examples/testing');

interface Ran {
  code: number | null;
  output: string;
}

/** The environment of a user's shell: none of this run's vitest or pinvoice settings. */
function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', CI: 'true' };
  for (const key of Object.keys(env)) if (/^(VITEST|PINVOICE_|NODE_OPTIONS$|TEST$)/.test(key)) delete env[key];
  return env;
}

function sh(command: string, args: string[], cwd: string, timeoutMs = 120_000): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: userEnv(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe.skipIf(ENGINE === 'postgres')('examples/testing, installed by the package name', () => {
  let project: string;
  let packs: string;

  beforeAll(async () => {
    packs = mkdtempSync(join(tmpdir(), 'pinvoice-pack-'));
    // the suite runs after `npm run build`: pack dist/ as it is (prepare would build it again)
    const packed = await sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', packs], ROOT);
    expect(packed.code, packed.output).toBe(0);
    const tarball = join(packs, readdirSync(packs).find((name) => name.endsWith('.tgz')) as string);
    mkdirSync(join(ROOT, '.vitest-tmp'), { recursive: true });
    project = mkdtempSync(join(ROOT, '.vitest-tmp', 'testing-examples-'));
    cpSync(EXAMPLE, project, { recursive: true, filter: (source) => !source.includes('node_modules') });
    const installed = join(project, 'node_modules', 'pinvoice');
    mkdirSync(installed, { recursive: true });
    const untar = await sh('tar', ['-xzf', tarball, '-C', installed, '--strip-components=1'], project);
    expect(untar.code, untar.output).toBe(0);
  }, 120_000);

  afterAll(() => {
    if (project) rmSync(project, { recursive: true, force: true });
    if (packs) rmSync(packs, { recursive: true, force: true });
  });

  it('imports pinvoice/testing by its name in every suite, never a path into the repository', () => {
    for (const file of ['vitest/checkout.test.ts', 'vitest/checkout-request.test.ts', 'jest/checkout.test.js', 'node-test/checkout.test.js']) {
      const text = readFileSync(join(EXAMPLE, file), 'utf8');
      expect(text, file).toContain("from 'pinvoice/testing'");
      // the merchant's own code (../src/) is theirs; nothing reaches out of the example
      expect(text, file).not.toMatch(/from '(\.\.\/){2}|from '\.\.\/(?!src\/)/);
    }
  });

  it.each([
    ['vitest', /Tests\s+2 passed \(2\)/],
    ['jest', /Tests:\s+1 passed, 1 total/],
    ['node', /# pass 1\n# fail 0/],
  ])('passes under %s (its npm script)', async (runner, passed) => {
    const ran = await sh('npm', ['run', `test:${runner}`], project);
    expect(ran.code, ran.output).toBe(0);
    expect(ran.output).toMatch(passed);
  }, 120_000);

  it('type-checks the vitest suite against the package’s declaration files', async () => {
    const ran = await sh('npm', ['run', 'typecheck'], project);
    expect(ran.code, ran.output).toBe(0);
  }, 120_000);
});
