// The sandbox clock's operations (show, advance, set, reset) and the expiry timer that follows each
// company's clock. Moving a company's clock forward moves its pending postbacks forward with it.
import type { SandboxClock } from '../../api/sandbox.js';
import { ApiError } from '../errors.js';
import type { ServerContext } from '../invoices/context.js';
import { expireDue } from '../invoices/lifecycle.js';
import type { Company } from '../store/port.js';
import { companyContext } from './company-time.js';

const view = (now: Date, offsetMs: number): SandboxClock => ({ now: now.toISOString(), offset_seconds: offsetMs / 1000 });

export function showClock(ctx: ServerContext, company: Company): SandboxClock {
  return view(new Date(ctx.realClock().getTime() + company.clock_offset_ms), company.clock_offset_ms);
}

/**
 * Moves the company's clock to `offset(current offset)` under a lock (two requests at once move it
 * once each), its pending postbacks with it, then expires what the new time made due: when the
 * answer comes, every charge past its time reads expired and its event is recorded.
 */
async function moveClock(ctx: ServerContext, company: Company, offsetOf: (current: number, realNow: number) => number): Promise<SandboxClock> {
  const { offset, realNow } = await ctx.transaction(async (tx) => {
    await tx.lock(`sandbox-clock:${company.id}`);
    const current = (await tx.companies.get(company.id))?.clock_offset_ms ?? 0;
    const now = ctx.realClock().getTime();
    const next = offsetOf(current, now);
    await tx.companies.setClock(company.id, next);
    if (next > current) await tx.events.shiftDue(company.id, next - current, new Date(now).toISOString());
    return { offset: next, realNow: now };
  });
  ctx.companyChanged?.(company.id);
  const moved = companyContext(ctx, { clock_offset_ms: offset });
  await expireDue(moved, company.id);
  return view(new Date(realNow + offset), offset);
}

export const advanceClock = (ctx: ServerContext, company: Company, seconds: number) =>
  moveClock(ctx, company, (current) => current + seconds * 1000);

export const resetClock = (ctx: ServerContext, company: Company) => moveClock(ctx, company, () => 0);

export function setClock(ctx: ServerContext, company: Company, iso: string): Promise<SandboxClock> {
  const target = Date.parse(iso);
  return moveClock(ctx, company, (current, realNow) => {
    if (target < realNow + current) {
      throw new ApiError(409, 'invalid_state', `The sandbox clock reads ${new Date(realNow + current).toISOString()}: it only moves forward (DELETE /api/v2/sandbox/clock goes back to real time).`);
    }
    return target - realNow;
  });
}

/** The expiry timer's work: each company whose clock is ahead by its own time first, then the rest by real time. */
export async function expireAllDue(ctx: ServerContext): Promise<number> {
  let count = 0;
  for (const company of await ctx.store.companies.aheadClocks()) count += await expireDue(companyContext(ctx, company), company.id);
  return count + (await expireDue(companyContext(ctx, { clock_offset_ms: 0 })));
}
