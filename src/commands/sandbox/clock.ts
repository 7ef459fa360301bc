// `pinvoice sandbox clock [show|advance DURATION|set ISO|reset]`: the company's sandbox time.
import type { ClockView } from '../../client/read/serve-answers.js';
import { connect } from '../../cli/context.js';
import { spokenSeconds } from '../../base/spoken-duration.js';
import { parseDuration } from '../../base/duration.js';
import { usageError } from '../../cli/errors.js';
import { createOutput } from '../../cli/output.js';
import { dateTime, DASH } from '../../cli/render/format.js';
import { safeText } from '../../cli/render/safe-text.js';
import { keyValueTable, section } from '../../cli/render/table.js';
import { CLOCK_ACTIONS as ACTIONS, type ClockFlags } from './index.js';

function checked(action: string, value: string | undefined): { action: (typeof ACTIONS)[number]; seconds?: number; iso?: string } {
  if (!(ACTIONS as readonly string[]).includes(action)) throw usageError(`sandbox clock: unknown action "${action}"; use one of ${ACTIONS.join(', ')}`);
  const needs = action === 'advance' || action === 'set';
  if (needs && value === undefined) {
    throw usageError(action === 'advance' ? 'sandbox clock advance needs a duration, e.g. 2h, 3d or 1h30m' : 'sandbox clock set needs an ISO 8601 time, e.g. 2026-12-24T12:00:00Z');
  }
  if (!needs && value !== undefined) throw usageError(`sandbox clock ${action} takes no value (got "${value}")`);
  if (action === 'advance') {
    const seconds = parseDuration(value ?? '');
    if (seconds === undefined) throw usageError(`sandbox clock advance: "${value}" is not a duration; use e.g. 90s, 45m, 2h, 3d, 1w or 1h30m`);
    return { action, seconds };
  }
  if (action === 'set' && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(value ?? '')) {
    throw usageError(`sandbox clock set: "${value}" is not an ISO 8601 time with its zone, e.g. 2026-12-24T12:00:00Z or 2026-12-24T09:00:00-03:00`);
  }
  return { action: action as (typeof ACTIONS)[number], iso: value };
}

const offsetText = (clock: ClockView) =>
  clock.offsetSeconds === undefined ? DASH : clock.offsetSeconds === 0 ? 'real time' : `${spokenSeconds(clock.offsetSeconds)} ahead of real time`;

/** The server's refusals in the command's words: its seconds as a duration, its route as the command that resets. */
async function inCommandTerms(error: unknown, seconds: number | undefined): Promise<unknown> {
  const [{ ApiRequestError }, { inUserTerms }] = await Promise.all([import('../../client/errors.js'), import('../../cli/field-errors.js')]);
  if (error instanceof ApiRequestError) error.message = error.message.replace('DELETE /api/v2/sandbox/clock', '`pinvoice sandbox clock reset`');
  return inUserTerms(error, { flagOf: (path) => (path === 'seconds' ? 'sandbox clock advance' : undefined), sent: { seconds } });
}

export async function clock(action = 'show', value: string | undefined, flags: ClockFlags): Promise<void> {
  const request = checked(action, value);
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const result = await (request.action === 'advance' ? client.clockAdvance(request.seconds ?? 0)
    : request.action === 'set' ? client.clockSet(request.iso ?? '')
      : request.action === 'reset' ? client.clockReset()
        : client.clockShow()).catch(async (error: unknown) => {
    throw await inCommandTerms(error, request.seconds);
  });
  if (out.json) return out.jsonData(result.raw);
  const now = result.now === undefined ? DASH : `${dateTime(result.now)} (${safeText(result.now)})`;
  out.data(section('Sandbox clock', keyValueTable([['now', now], ['offset', offsetText(result)]], out.palette), out.palette));
}
