// `pinvoice profile list --names` (hidden): the stored profiles' names, one per line, which the
// completion scripts ask for when completing `--profile` and `profile use`. It reads the file straight,
// never through conf (slow to load, and it writes a file where there is none): no file, no names.
import { readFileSync } from 'node:fs';
import { brokenConfigError, configPath, configProblem } from '../../cli/config.js';
import { createOutput } from '../../cli/output.js';
import { PROFILE_NAME } from '../../cli/profile-name.js';

export function printProfileNames(): void {
  const path = configPath();
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return;
  }
  const problem = configProblem(text);
  if (problem !== undefined) throw brokenConfigError(path, problem);
  const profiles = (JSON.parse(text) as { profiles?: Record<string, unknown> }).profiles ?? {};
  // A name typed into the file by hand that pinvoice would not accept is no word to offer (nor to pass to a shell).
  const names = Object.keys(profiles).filter((name) => PROFILE_NAME.test(name));
  createOutput({}).records(names.map((name) => [name]));
}
