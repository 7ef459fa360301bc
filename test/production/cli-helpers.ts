// Shared by the CLI-against-production tests (cli-*.test.ts): the built CLI, run as a user would, against
// the production stand-in (test/support/production-gateway.ts), each run with a config home of its own.
import { rmSync } from 'node:fs';
import { expect } from 'vitest';
import { run, tempHome, type RunResult } from '../support/cli.js';
import type { ProductionGateway } from '../support/production-gateway.js';

export type Env = Record<string, string>;

const homes: string[] = [];

/** A fresh config/data home; removeHomes() deletes every one made so far. */
export function home(): Env {
  const made = tempHome();
  homes.push(made.HOME!);
  return made;
}

export function removeHomes(): void {
  for (const dir of homes.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A home where `pinvoice login --profile prod` has just succeeded against the gateway. */
export async function loggedIn(gateway: ProductionGateway): Promise<Env> {
  const env = home();
  const login = await run(['login', '--profile', 'prod', '--base-url', `${gateway.url}/api/v2`, '--token-stdin'], { env, input: gateway.token });
  expect(login.code, login.stderr).toBe(0);
  return env;
}

/** A home with no profile: the token and base URL come from the environment. */
export function fromEnv(gateway: ProductionGateway, extra: Env = {}): Env {
  return { ...home(), PINVOICE_TOKEN: gateway.token, PINVOICE_BASE_URL: `${gateway.url}/api/v2`, ...extra };
}

/** The flags of a complete pix charge, as the README shows them. */
export const CREATE_PIX = [
  'invoice', 'create', '--method', 'pix', '--payer-name', 'Fulano de Tal', '--payer-email', 'f@example.com',
  '--payer-document', '529.982.247-25', '--item', 'Camiseta:1:19,90', '--no-input',
];

/** A create request as a file or batch line would hold it. */
export function createRequest(n: number): Record<string, unknown> {
  return {
    method: 'pix',
    total_price_cents: 1000 + n,
    payer: { name: `João ${n}`, email: `joao${n}@example.com`, cpf_cnpj: '529.982.247-25' },
    items: [{ name: `Item ${n}`, quantity: 1, unit_price: 1000 + n }],
  };
}

/** "METHOD path" of every request the gateway received from index `from` on. */
export const requestLines = (gateway: ProductionGateway, from = 0): string[] => gateway.requests.slice(from).map((request) => `${request.method} ${request.url}`);

/** The value in a two-column table row (`│ label │ value │`), trimmed. */
export function row(stdout: string, label: string): string | undefined {
  const escaped = label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^│ ${escaped} +│ (.*?) *│$`, 'm').exec(stdout)?.[1];
}

/** The text after a section's heading line (up to the next blank line followed by a heading, or the end). */
export function section(stdout: string, heading: string): string {
  const start = stdout.indexOf(`\n${heading}\n`);
  if (start < 0 && !stdout.startsWith(`${heading}\n`)) return '';
  const from = start < 0 ? heading.length + 1 : start + heading.length + 2;
  const end = stdout.indexOf('\n\n', from);
  return stdout.slice(from, end < 0 ? undefined : end);
}

/** What no answer production may give should ever produce. */
export function tolerated(result: RunResult): void {
  expect(result.stderr).not.toMatch(/unexpected response/i);
  expect(result.stdout).not.toMatch(/unexpected response/i);
  expect(result.code, result.stderr).not.toBe(5);
}

export async function until(condition: () => boolean, timeoutMs = 5000): Promise<void> {
  const started = Date.now();
  while (!condition()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
