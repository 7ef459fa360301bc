// The sandbox clock's operations (show, advance, set, reset) and the expiry timer that follows each
// company's clock. Moving a company's clock forward moves its pending postbacks forward with it.
import { CLOCK_BOUND_MESSAGE, CLOCK_LATEST, withinClockBound } from '../../api/clock-bound.js';
import type { SandboxClock } from '../../api/sandbox.js';
import { ApiError, validationFailed } from '../errors.js';
import type { ServerContext } from '../invoices/context.js';
import { expireDue } from '../invoices/lifecycle.js';
import { StoreFault } from '../store/faults.js';
import type { Company, Invoice } from '../store/port.js';
import { companyContext } from './company-time.js';

const view = (now: Date, offsetMs: number): SandboxClock => ({ now: now.toISOString(), offset_seconds: offsetMs / 1000 });

export function showClock(ctx: ServerContext, company: Company): SandboxClock {
  return view(new Date(ctx.realClock().getTime() + company.clock_offset_ms), company.clock_offset_ms);
}

/**
 * Moves the company's clock to `offset(current offset)` under a lock (two requests at once move it
 * once each), its pending postbacks with it, then expires what the new time made due: when the
 * answer comes, every charge past its time reads expired and its event is recorded. A move past the
 * clock's bound is refused (422, naming `field`, the request's member that asked for it).
 */
async function moveClock(ctx: ServerContext, company: Company, field: string, offsetOf: (current: number, realNow: number) => number): Promise<SandboxClock> {
  const { offset, realNow } = await ctx.transaction(async (tx) => {
    await tx.lock(`sandbox-clock:${company.id}`);
    const current = (await tx.companies.get(company.id))?.clock_offset_ms ?? 0;
    const now = ctx.realClock().getTime();
    const next = offsetOf(current, now);
    if (next > current && !withinClockBound(now + next)) throw validationFailed([{ path: field, message: CLOCK_BOUND_MESSAGE }]);
    await tx.companies.setClock(company.id, next);
    if (next > current) await tx.events.shiftDue(company.id, next - current, new Date(now).toISOString());
    return { offset: next, realNow: now };
  });
  const moved = companyContext(ctx, { clock_offset_ms: offset });
  await expireDue(moved, company.id);
  return view(new Date(realNow + offset), offset);
}

export const advanceClock = (ctx: ServerContext, company: Company, seconds: number) =>
  moveClock(ctx, company, 'seconds', (current) => current + seconds * 1000);

export const resetClock = (ctx: ServerContext, company: Company) => moveClock(ctx, company, 'reset', () => 0);

export function setClock(ctx: ServerContext, company: Company, iso: string): Promise<SandboxClock> {
  const target = Date.parse(iso);
  return moveClock(ctx, company, 'now', (current, realNow) => {
    if (target < realNow + current) {
      throw new ApiError(409, 'invalid_state', `The sandbox clock reads ${new Date(realNow + current).toISOString()}: it only moves forward (DELETE /api/v2/sandbox/clock goes back to real time).`);
    }
    return target - realNow;
  });
}

/**
 * The expiry timer's work: each company whose clock is ahead by its own time first, then the rest by
 * real time. A company whose sweep fails (but for the store itself) is told once and the others go on;
 * a charge a sweep cannot expire is told once and passed; and at the first run, charges an older build
 * left with an expiry past year 9999 (which no time comparison finds due) are told once.
 */
export function createExpirySweep(ctx: ServerContext, logLine: (line: string) => void): () => Promise<number> {
  const told = new Set<string>();
  const once = (key: string, line: string) => {
    if (told.has(key)) return;
    told.add(key);
    logLine(line);
  };
  const unsettled = (row: Invoice, why: string) => once(`charge ${row.id}`, `expiry: charge ${row.secure_id} of company ${row.company_id} is left pending: ${why}`);
  const sweep = (company: Pick<Company, 'clock_offset_ms'>, companyId?: number) => expireDue(companyContext(ctx, company), companyId, unsettled);
  const sweepOf = async (companyId: number, offsetMs: number): Promise<number> => {
    try {
      return await sweep({ clock_offset_ms: offsetMs }, companyId);
    } catch (error) {
      if (error instanceof StoreFault) throw error;
      once(`company ${companyId}: ${(error as Error).message}`, `expiry: the sweep of company ${companyId} failed (the others go on): ${(error as Error).message}`);
      return 0;
    }
  };
  // the companies on real time in one sweep; when that fails, one by one, so that one company's fault stops no other
  const onRealTime = async (): Promise<number> => {
    try {
      return await sweep({ clock_offset_ms: 0 });
    } catch (error) {
      if (error instanceof StoreFault) throw error;
      let count = 0;
      for (const company of await ctx.reads.companies.list()) if (company.clock_offset_ms === 0) count += await sweepOf(company.id, 0);
      return count;
    }
  };
  let checked = false;
  return async () => {
    if (!checked) {
      for (const row of await ctx.reads.invoices.unsortableExpiries(UNSORTABLE_TOLD)) unsettled(row, unsortable(row.expires_at ?? ''));
      checked = true;
    }
    let count = 0;
    for (const company of await ctx.store.companies.aheadClocks()) count += await sweepOf(company.id, company.clock_offset_ms);
    return count + (await onRealTime());
  };
}

/** How many such charges the first run tells of, one line each. */
const UNSORTABLE_TOLD = 20;

const unsortable = (expiry: string) => (expiry.startsWith('+')
  ? `its expiry ${expiry} lies past year 9999 (an older pinvoice let the sandbox clock go there; it now stops at ${CLOCK_LATEST})`
  : `its expiry ${expiry} is not a time of the form YYYY-MM-DDTHH:MM:SS.sssZ`);
