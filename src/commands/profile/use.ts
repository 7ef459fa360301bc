// `pinvoice profile use <name>`: the profile commands use when none is named.
import { openConfig } from '../../cli/config.js';
import { CliError, EXIT } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import type { ProfileUseFlags } from './index.js';

export async function profileUse(name: string, flags: ProfileUseFlags): Promise<void> {
  const config = await openConfig();
  if (!config.get(name)) throw new CliError(`no profile "${name}" (see pinvoice profile list)`, EXIT.notFound);
  config.setCurrent(name);
  createOutput(flags).message(`Now using profile "${name}" (${config.get(name)?.baseUrl}).`);
}
