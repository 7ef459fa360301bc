// The API Pix charge a payer's bank reads at the code's location (BCB's "API Pix", cobrança imediata),
// made from our charge record: amounts as text from integer cents, the status as the PSP reports it.
import { centsToDecimal } from '../../domain/money.js';
import type { Status } from '../../domain/status.js';
import type { Company, Invoice } from '../store/port.js';

export type PixChargeStatus = 'ATIVA' | 'CONCLUIDA' | 'REMOVIDA_PELO_PSP';

export interface PixChargePayload {
  txid: string;
  revisao: number;
  calendario: { criacao: string; apresentacao: string; expiracao: number };
  devedor: { cpf: string; nome: string } | { cnpj: string; nome: string };
  valor: { original: string };
  chave: string;
  status: PixChargeStatus;
  solicitacaoPagador: string;
  infoAdicionais: { nome: string; valor: string }[];
}

/** A charge once paid stays CONCLUIDA for the payer's bank, whatever happened after (a refund, a chargeback). */
export function pixChargeStatus(status: Status): PixChargeStatus {
  if (status === 'pending' || status === 'waiting_3ds') return 'ATIVA';
  if (status === 'paid' || status === 'refunded' || status === 'chargedback') return 'CONCLUIDA';
  return 'REMOVIDA_PELO_PSP';
}

/** The API Pix caps nome and valor of infoAdicionais at 50 and 200 characters, solicitacaoPagador at 140. */
const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

export function pixChargePayload(invoice: Invoice, company: Pick<Company, 'cnpj' | 'fantasy_name'>, presentedAt: Date): PixChargePayload {
  const document = invoice.payer.cpf_cnpj;
  const expiresMs = invoice.expires_at ? new Date(invoice.expires_at).getTime() - new Date(invoice.created_at).getTime() : 0;
  return {
    txid: invoice.pix_txid ?? '',
    revisao: 0,
    calendario: { criacao: invoice.created_at, apresentacao: presentedAt.toISOString(), expiracao: Math.max(0, Math.round(expiresMs / 1000)) },
    devedor: document.length === 11 ? { cpf: document, nome: invoice.payer.name } : { cnpj: document, nome: invoice.payer.name },
    valor: { original: centsToDecimal(invoice.amount) },
    // a dynamic code carries no key; the receiving account's key is the company's CNPJ
    chave: company.cnpj,
    // past its expiry, though the sweep has not come by yet: no longer payable, as a GET of it would say
    status: invoice.status === 'pending' && invoice.expires_at !== null && Date.parse(invoice.expires_at) <= presentedAt.getTime() ? 'REMOVIDA_PELO_PSP' : pixChargeStatus(invoice.status),
    solicitacaoPagador: cut(`${company.fantasy_name}: ${invoice.secure_id}`, 140),
    infoAdicionais: invoice.items.slice(0, 50).map((item) => ({
      nome: cut(item.title, 50),
      valor: cut(`${item.quantity} × ${centsToDecimal(item.unitPrice)}`, 200),
    })),
  };
}
