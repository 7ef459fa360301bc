// `pinvoice logout`: removes a profile and its token, and says what is current afterwards.
import { openConfig } from '../../cli/config.js';
import { profileName } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import type { LogoutFlags } from './index.js';

export async function logout(flags: LogoutFlags): Promise<void> {
  const config = await openConfig();
  const name = profileName(flags, config);
  const wasCurrent = config.current() === name;
  if (!config.remove(name)) throw new CliError(`no profile "${name}" (see pinvoice profile list)`, EXIT.notFound);
  const left = Object.keys(config.all());
  let next = '';
  if (left.length === 0) next = ' No profiles are left: run `pinvoice login` to add one.';
  else if (wasCurrent) next = ` No profile is current now: choose one with \`pinvoice profile use <name>\` (${left.join(', ')}), or run \`pinvoice login\`.`;
  createOutput(flags).message(`Profile "${name}" and its token removed.${next}`);
}
