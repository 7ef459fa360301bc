// `pinvoice sandbox pay|expire|cancel|chargeback`: drive a charge through its life on `pinvoice serve`.
// The verbs are the domain's sandbox actions (domain/status), the same list the API and server use.
import { Command } from '@commander-js/extra-typings';
import { SANDBOX_ACTION_NAMES, type SandboxAction } from '../../domain/status.js';
import { examples, withConnection, type FlagsOf } from '../options.js';

const HELP: Record<SandboxAction, string> = {
  pay: 'pay a pending charge (or one waiting for 3-D Secure)',
  expire: 'expire a pending charge now',
  cancel: 'cancel a pending charge (or one waiting for 3-D Secure)',
  chargeback: 'charge back a paid charge',
};

const actionCommand = (action: SandboxAction) =>
  withConnection(new Command(action))
    .description(HELP[action])
    .argument('<id>', 'integer id or secureId')
    .addHelpText('after', examples(`pinvoice sandbox ${action} 42`));
export type SandboxFlags = FlagsOf<typeof actionCommand>;

export function sandboxGroup() {
  const sandbox = new Command('sandbox').description('drive a charge through its life on `pinvoice serve` (sandbox only)');
  for (const action of SANDBOX_ACTION_NAMES) {
    sandbox.addCommand(actionCommand(action).action(async (id, flags) => (await import('./drive.js')).drive(action, id, flags)));
  }
  return sandbox;
}
