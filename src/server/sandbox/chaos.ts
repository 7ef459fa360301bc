// Postback chaos: faults the sandbox injects into a company's deliveries (or one charge's), so a
// merchant can prove a handler idempotent, order-proof and strict about signatures. The rule lives on
// the company; the dispatcher reads it at each delivery, so a change applies from the next attempt.
import { createHmac } from 'node:crypto';
import type { ChaosRequest, ChaosRule, PixLocationFault } from '../../api/sandbox.js';
import { ApiError } from '../errors.js';
import type { ServerContext } from '../invoices/context.js';
import type { ChaosSettings, Company } from '../store/port.js';

const OFF: Required<Omit<ChaosSettings, 'invoice'>> = { duplicate: false, delay_ms: 0, reorder: false, drop_first: 0, bad_signature: false, pix_location: null };

const isActive = (chaos: Omit<ChaosSettings, 'invoice'>) =>
  chaos.duplicate || chaos.delay_ms > 0 || chaos.reorder || chaos.drop_first > 0 || chaos.bad_signature || Boolean(chaos.pix_location);

/** The company's rule as the API shows it (all off when none is set). */
export function chaosRule(company: Pick<Company, 'chaos'>): ChaosRule {
  const chaos = company.chaos ?? { ...OFF, invoice: null };
  const { invoice, ...faults } = chaos;
  return { ...OFF, ...faults, invoice_id: invoice?.secure_id ?? null, active: isActive(chaos) };
}

/** The faults for one charge's deliveries, or null when none applies to it. */
export function chaosFor(company: Pick<Company, 'chaos'>, invoiceId: number): ChaosSettings | null {
  const chaos = company.chaos;
  if (!chaos || !isActive(chaos)) return null;
  return chaos.invoice === null || chaos.invoice.id === invoiceId ? chaos : null;
}

/** The fault the location of this charge's code shows, or null. */
export function pixLocationFault(company: Pick<Company, 'chaos'>, invoiceId: number): PixLocationFault | null {
  return chaosFor(company, invoiceId)?.pix_location ?? null;
}

/** The secret a bad_signature delivery is signed with: derived from the real one, never equal to it. */
export const wrongSecret = (secret: string): string => `whsec_${createHmac('sha256', 'pinvoice sandbox chaos').update(secret).digest('hex').slice(0, 32)}`;

/** PUT: replaces the whole rule (members left out are off); `invoice_id` must name a charge of the company. */
export async function putChaos(ctx: ServerContext, company: Company, request: ChaosRequest): Promise<ChaosRule> {
  let invoice: ChaosSettings['invoice'] = null;
  if (request.invoice_id !== undefined && request.invoice_id !== null) {
    const found = await ctx.reads.invoices.find(company.id, String(request.invoice_id).trim());
    if (!found) throw new ApiError(404, 'not_found', `No charge ${request.invoice_id} for this company: chaos can be narrowed to a charge of its own only.`);
    invoice = { id: found.id, secure_id: found.secure_id };
  }
  const chaos: ChaosSettings = {
    duplicate: request.duplicate ?? false,
    delay_ms: request.delay_ms ?? 0,
    reorder: request.reorder ?? false,
    drop_first: request.drop_first ?? 0,
    bad_signature: request.bad_signature ?? false,
    pix_location: request.pix_location ?? null,
    invoice,
  };
  await ctx.transaction((tx) => tx.companies.setChaos(company.id, chaos));
  return chaosRule({ chaos });
}

export async function clearChaos(ctx: ServerContext, company: Company): Promise<ChaosRule> {
  await ctx.transaction((tx) => tx.companies.setChaos(company.id, null));
  return chaosRule({ chaos: null });
}

/** GET reads the stored rule, not the one the request's token remembered (another process may have changed it). */
export async function getChaos(ctx: ServerContext, company: Company): Promise<ChaosRule> {
  return chaosRule((await ctx.reads.companies.get(company.id)) ?? company);
}
