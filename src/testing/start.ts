// The entry's startSandbox: the server and its store are loaded at the first call, so a test file that
// imports `pinvoice/testing` loads little; and the declaration build (tsconfig.types.json) reads the
// types here, not the server's whole source (the specifier is not a literal for that reason).
import type { SandboxOptions, Sandbox, StartSandbox } from './types.js';

const IMPLEMENTATION = './sandbox.js';

/** Starts the server in this process on a free loopback port over a database of its own (docs/testing.md). */
export async function startSandbox(options: SandboxOptions = {}): Promise<Sandbox> {
  const { startSandbox: start } = (await import(IMPLEMENTATION)) as { startSandbox: StartSandbox };
  return start(options);
}
