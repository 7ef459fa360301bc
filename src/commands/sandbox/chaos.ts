// `pinvoice sandbox chaos [show|set FLAGS|clear]`: the faults injected into the company's postbacks.
import type { ChaosRequest } from '../../api/sandbox.js';
import { spokenDuration } from '../../base/spoken-duration.js';
import type { ChaosView } from '../../client/read/serve-answers.js';
import { connect } from '../../cli/context.js';
import { usageError } from '../../cli/errors.js';
import { createOutput, type Output } from '../../cli/output.js';
import { safeText } from '../../cli/render/safe-text.js';
import { keyValueTable, section } from '../../cli/render/table.js';
import { CHAOS_ACTIONS, type ChaosFlags } from './index.js';

const FAULT_FLAGS = ['duplicate', 'delay', 'reorder', 'dropFirst', 'badSignature', 'invoice'] as const;
const FLAG_NAMES: Record<(typeof FAULT_FLAGS)[number], string> = {
  duplicate: '--duplicate', delay: '--delay', reorder: '--reorder', dropFirst: '--drop-first', badSignature: '--bad-signature', invoice: '--invoice',
};

/** The rule `set` sends: the flags given; the server takes what is left out as off (a PUT replaces the whole rule). */
function ruleOf(flags: ChaosFlags): ChaosRequest {
  const rule: ChaosRequest = {
    duplicate: flags.duplicate,
    delay_ms: flags.delay,
    reorder: flags.reorder,
    drop_first: flags.dropFirst,
    bad_signature: flags.badSignature,
    invoice_id: flags.invoice?.trim() || undefined,
  };
  if (![rule.duplicate, rule.delay_ms, rule.reorder, rule.drop_first, rule.bad_signature].some(Boolean)) {
    throw usageError('sandbox chaos set needs at least one fault: --duplicate, --delay, --reorder, --drop-first or --bad-signature (clear turns them off)');
  }
  return rule;
}

function render(out: Output, rule: ChaosView): void {
  if (out.json) return out.jsonData(rule.raw);
  const on = (value: boolean | undefined) => (value ? out.palette.warn('on') : 'off');
  const rows: [string, string][] = [
    ['chaos', rule.active ? out.palette.warn('active') : out.palette.ok('off: postbacks are delivered faithfully')],
    ['applies to', rule.invoiceId === undefined ? 'every charge of the company' : safeText(rule.invoiceId)],
    ['duplicate', on(rule.duplicate)],
    ['delay', rule.delayMs ? out.palette.warn(spokenDuration(rule.delayMs)) : 'off'],
    ['reorder', on(rule.reorder)],
    ['drop first', rule.dropFirst ? out.palette.warn(`${rule.dropFirst} attempt(s) of each event`) : 'off'],
    ['bad signature', on(rule.badSignature)],
  ];
  out.data(section('Postback chaos', keyValueTable(rows, out.palette), out.palette));
}

export async function chaos(action = 'show', flags: ChaosFlags): Promise<void> {
  if (!(CHAOS_ACTIONS as readonly string[]).includes(action)) throw usageError(`sandbox chaos: unknown action "${action}"; use show, set or clear`);
  const given = FAULT_FLAGS.filter((name) => flags[name] !== undefined);
  if (action !== 'set' && given.length > 0) throw usageError(`sandbox chaos ${action} takes no fault flags (got ${given.map((name) => FLAG_NAMES[name]).join(', ')}); use sandbox chaos set`);
  const rule = action === 'set' ? ruleOf(flags) : undefined;
  const out = createOutput(flags);
  const { client } = await connect(flags);
  render(out, rule ? await client.chaosSet(rule) : action === 'clear' ? await client.chaosClear() : await client.chaosShow());
}
