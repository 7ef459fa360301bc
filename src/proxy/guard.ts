// The money guard (contract, "Writes are guarded"): a request other than GET, HEAD or OPTIONS is
// refused unless the proxy was started with --allow-writes; with --max-amount, a create or a refund
// above the cap is refused too, and so is one whose amount the proxy cannot read (a refund without
// amount_cents refunds what is left, which only the gateway knows). Refused requests are never sent.
import { operationAt } from '../api/operation-at.js';
import { READ_METHODS, type ProxyErrorCode } from '../api/proxy.js';
import { formatBRL } from '../domain/money.js';

export interface GuardOptions {
  allowWrites: boolean;
  /** the most a create or refund may be, in cents */
  maxAmountCents?: number | undefined;
}

export interface Refusal {
  code: ProxyErrorCode;
  message: string;
}

const amountOf = (body: Buffer, member: string): unknown => {
  try {
    const value: unknown = JSON.parse(body.toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[member] : undefined;
  } catch {
    return undefined;
  }
};

/** Why the request may not go to the gateway, or undefined when it may. */
export function refusal(method: string, path: string, body: Buffer, options: GuardOptions): Refusal | undefined {
  if (READ_METHODS.includes(method.toUpperCase())) return undefined;
  if (!options.allowWrites) {
    return { code: 'proxy_write_refused', message: `${method} ${path} was not sent: this proxy passes reads only; start it with --allow-writes to let writes (charges, refunds) reach the gateway` };
  }
  const cap = options.maxAmountCents;
  if (cap === undefined) return undefined;
  const operation = operationAt(method, path);
  if (operation?.id !== 'createInvoice' && operation?.id !== 'createRefund') return undefined;
  const member = operation.id === 'createInvoice' ? 'total_price_cents' : 'amount_cents';
  const what = operation.id === 'createInvoice' ? 'charge' : 'refund';
  const amount = amountOf(body, member);
  if (amount === undefined && operation.id === 'createRefund') {
    return { code: 'proxy_amount_refused', message: `the refund was not sent: it gives no amount_cents, so it would refund whatever is left of the charge, which --max-amount ${formatBRL(cap)} cannot check; give amount_cents` };
  }
  if (typeof amount !== 'number' || !Number.isSafeInteger(amount)) {
    return { code: 'proxy_amount_refused', message: `the ${what} was not sent: its ${member} is not a whole number of cents, so --max-amount ${formatBRL(cap)} cannot check it` };
  }
  if (amount > cap) {
    return { code: 'proxy_amount_refused', message: `the ${what} of ${formatBRL(amount)} was not sent: it is above --max-amount ${formatBRL(cap)}` };
  }
  return undefined;
}
