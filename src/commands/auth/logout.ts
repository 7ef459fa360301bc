// `pinvoice logout`: removes a profile and its token, and says what is current afterwards. The token
// cannot be shown again, so a terminal is asked first (--yes skips; scripts are never asked).
import { openConfig } from '../../cli/config.js';
import { profileName } from '../../cli/context.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import type { LogoutFlags } from './index.js';

export async function logout(flags: LogoutFlags): Promise<void> {
  const config = await openConfig();
  const name = profileName(flags, config);
  const wasCurrent = config.current() === name;
  if (config.all()[name] !== undefined) {
    const { confirmAction } = await import('../../cli/prompts/confirm.js');
    await confirmAction(`Remove profile "${name}" and its token? pinvoice cannot show the token again: logging in again needs it from wherever it was issued.`, flags);
  }
  if (!config.remove(name)) throw new CliError(`no profile "${name}" (see pinvoice profile list)`, EXIT.notFound);
  const left = Object.keys(config.all());
  let next = '';
  if (left.length === 0) next = ' No profiles are left: run `pinvoice login` to add one.';
  else if (wasCurrent) next = ` No profile is current now: choose one with \`pinvoice profile use <name>\` (${left.join(', ')}), or run \`pinvoice login\`.`;
  createOutput(flags).message(`Profile "${name}" and its token removed.${next}`);
}
