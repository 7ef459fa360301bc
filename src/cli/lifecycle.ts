// `pinvoice invoice refund|3ds|open` and `pinvoice sandbox pay|expire|cancel|chargeback`.
import type { ThreeDSRequest } from '../api/schemas.js';
import type { SandboxAction } from '../client/index.js';
import { connect, type CommonFlags } from './context.js';
import { usageError } from './errors.js';
import { amountFlag, readPayload } from './invoice-input.js';
import { show, type ShowFlags } from './invoice.js';
import { createOutput } from './output.js';

export interface RefundFlags extends ShowFlags {
  amount?: string;
  reason?: string;
  idempotencyKey?: string;
}

export async function refundInvoice(id: string, flags: RefundFlags): Promise<void> {
  const amount = flags.amount === undefined ? undefined : amountFlag(flags.amount, '--amount');
  const out = createOutput(flags);
  const { client } = await connect(flags);
  const tx = await client.refund(id, { ...(amount !== undefined && { amount_cents: amount }), ...(flags.reason && { reason: flags.reason }) }, flags.idempotencyKey);
  await show(out, tx, { ...flags, qr: false });
}

export interface ThreeDSFlags extends ShowFlags {
  file?: string;
  sample?: boolean;
  cavv?: string;
  xid?: string;
  eci?: string;
  version?: string;
  referenceid?: string;
}

const FIELDS = ['cavv', 'xid', 'eci', 'version', 'referenceid'] as const;

export async function complete3ds(id: string, flags: ThreeDSFlags): Promise<void> {
  const { SAMPLE_3DS_VALUES } = await import('../domain/card-outcome.js');
  const base: Record<string, unknown> = flags.sample ? { ...SAMPLE_3DS_VALUES } : flags.file ? await readPayload(flags.file) : {};
  for (const field of FIELDS) if (flags[field] !== undefined) base[field] = flags[field];
  const missing = FIELDS.filter((field) => typeof base[field] !== 'string' || base[field] === '');
  if (missing.length) throw usageError(`3-D Secure values missing: ${missing.map((f) => `--${f}`).join(', ')} (or --file, or --sample)`);
  const out = createOutput(flags);
  const { client } = await connect(flags);
  await show(out, await client.complete3ds(id, base as ThreeDSRequest), { ...flags, qr: false });
}

export async function sandbox(action: SandboxAction, id: string, flags: ShowFlags): Promise<void> {
  const out = createOutput(flags);
  const { client } = await connect(flags);
  await show(out, await client.sandbox(id, action), { ...flags, qr: false });
}

/** Prints the payer's page of a charge: the public view, keyed by its unguessable checkout token. */
export async function openInvoice(id: string, flags: CommonFlags): Promise<void> {
  const out = createOutput(flags);
  const { client, connection } = await connect(flags);
  const tx = await client.getInvoice(id);
  const url = `${connection.baseUrl}/api/v2/public/invoices/${tx.invoice.token_checkout}`;
  if (out.json) out.jsonData({ url, token_checkout: tx.invoice.token_checkout });
  else out.data(url);
}
