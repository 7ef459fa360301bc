// What each payment method adds to a new charge: the pix code, the bank slip, or the card decision.
import type { Card, CardInput, CreateInvoiceRequest, Status } from '../../api/schemas.js';
import { barcodeToDigitableLine, buildBarcode, sandboxFreeField } from '../../domain/boleto.js';
import { normalizeCardNumber } from '../../domain/card.js';
import { cardOutcome, check3ds, detectBrand, maskCard, tokenOutcome, type CardOutcome } from '../../domain/card-outcome.js';
import { makeTxid } from '../../domain/ids.js';
import { buildPixCode } from '../../domain/pix.js';
import type { BoletoData, Company } from '../store/port.js';
import type { ServerContext } from './context.js';

export interface MethodData {
  status: Status;
  note: string;
  refusedReason?: string;
  fields: {
    pix_code: string | null;
    pix_txid: string | null;
    boleto: BoletoData | null;
    card: Card | null;
    expires_at: string | null;
    installments: number;
  };
}

const NONE = { pix_code: null, pix_txid: null, boleto: null, card: null, expires_at: null, installments: 1 };

/**
 * The BR Code of a charge. The merchant's name and city go in capitals, as the Banco Central's examples
 * and most PSPs write them: a run of capitals, digits and spaces packs into a QR's alphanumeric mode, so
 * every name of letters and spaces (up to the field's 25 characters) keeps the code at version 7, a QR
 * of 24 lines that fits an 80×24 terminal (test/unit/qr.test.ts pins it).
 */
export function pixCodeOf(company: Pick<Company, 'fantasy_name' | 'address_city'>, amountCents: number, location: string): string {
  return buildPixCode({
    merchantName: company.fantasy_name.toUpperCase(),
    merchantCity: company.address_city.toUpperCase(),
    amountCents,
    url: location,
  });
}

export function pixData(ctx: ServerContext, company: Company, request: CreateInvoiceRequest, now: Date): MethodData {
  const txid = makeTxid(ctx.random(64), now);
  const code = pixCodeOf(company, request.total_price_cents, `${ctx.config.pixLocation}/${txid}`);
  const expiresAt = new Date(now.getTime() + ctx.config.pixExpirySeconds * 1000).toISOString();
  return { status: 'pending', note: 'pix charge created; awaiting payment', fields: { ...NONE, pix_code: code, pix_txid: txid, expires_at: expiresAt } };
}

/**
 * São Paulo is UTC−3 all year (no daylight saving since 2019). A slip is payable through its due date
 * there, and late through the grace days after it; it expires at the midnight that ends the last one.
 */
const SAO_PAULO_OFFSET_MS = 3 * 3600 * 1000;

export function boletoData(ctx: ServerContext, company: Company, request: CreateInvoiceRequest, id: number, now: Date): MethodData {
  const localToday = new Date(now.getTime() - SAO_PAULO_OFFSET_MS);
  const due = new Date(Date.UTC(localToday.getUTCFullYear(), localToday.getUTCMonth(), localToday.getUTCDate() + ctx.config.boletoDueDays));
  const dueDate = due.toISOString().slice(0, 10);
  const expiresAt = new Date(due.getTime() + (1 + ctx.config.boletoGraceDays) * 86_400_000 + SAO_PAULO_OFFSET_MS).toISOString();
  const bankCode = /^\d{3}/.exec(company.bank_name)?.[0] ?? '001';
  const barcode = buildBarcode({ bankCode, amountCents: request.total_price_cents, dueDate, freeField: sandboxFreeField(id, company.bank_agency, company.bank_account) });
  const boleto = { barcode, digitableLine: barcodeToDigitableLine(barcode), dueDate, expiresAt };
  return { status: 'pending', note: `boleto issued; due ${dueDate}`, fields: { ...NONE, boleto, expires_at: expiresAt } };
}

function decide(outcome: CardOutcome, authenticated: boolean | undefined): Pick<MethodData, 'status' | 'note' | 'refusedReason'> & { threeDS: Card['threeDSecure'] } {
  if (outcome.kind === 'declined') return { status: 'refused', note: `card declined: ${outcome.reason}`, refusedReason: outcome.reason, threeDS: authenticated ? 'authenticated' : 'not_required' };
  if (outcome.kind === 'approved') return { status: 'paid', note: 'card approved', threeDS: authenticated ? 'authenticated' : 'not_required' };
  if (authenticated === undefined) return { status: 'waiting_3ds', note: 'card requires 3-D Secure authentication', threeDS: 'required' };
  if (authenticated) return { status: 'paid', note: 'card approved after 3-D Secure authentication', threeDS: 'authenticated' };
  return { status: 'refused', note: '3-D Secure authentication failed', refusedReason: 'authentication_failed', threeDS: 'failed' };
}

/** The card is decided at creation; only brand, holder, first 6 and last 4 digits are kept. */
export function cardData(input: CardInput): MethodData {
  const tokenized = Boolean(input.token?.trim());
  const digits = tokenized ? '' : normalizeCardNumber(input.number ?? '');
  const known = tokenized ? tokenOutcome(input.token ?? '') : { outcome: cardOutcome(digits), brand: detectBrand(digits), ...maskCard(digits) };
  const values = { cavv: input.cavv ?? '', xid: input.xid ?? '', eci: input.eci ?? '', version: input.version ?? '', referenceid: input.referenceid ?? '' };
  const carries3ds = Object.values(values).some((v) => v.trim() !== '');
  const authenticated = carries3ds ? check3ds(values, known.brand).authenticated : undefined;
  const decision = decide(known.outcome, authenticated);
  const card: Card = {
    brand: known.brand,
    holderName: [input.first_name, input.last_name].filter(Boolean).join(' '),
    firstDigits: known.firstDigits,
    lastDigits: known.lastDigits,
    expirationMonth: (input.month ?? '').padStart(input.month ? 2 : 0, '0'),
    expirationYear: input.year ?? '',
    installments: input.installment ?? 1,
    tokenized,
    threeDSecure: decision.threeDS,
  };
  return {
    status: decision.status,
    note: decision.note,
    ...(decision.refusedReason && { refusedReason: decision.refusedReason }),
    fields: { ...NONE, card, installments: card.installments },
  };
}
