// Charges of every method, and helpers that drive them through the real API.
import { request, validPix, type TestServer } from './server.js';

export const CARDS = {
  approved: '4111111111111111',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  stolen: '4000000000009979',
  expired: '4000000000000069',
  requires3ds: '4000000000003220',
} as const;

export const SECURITY_CODE = '9731';

export const cardCharge = (number: string, overrides: Record<string, unknown> = {}) =>
  validPix({
    method: 'credit_card',
    card: { number, first_name: 'Fulano', last_name: 'de Tal', month: '12', year: '2030', security_code: SECURITY_CODE, installment: 3 },
    ...overrides,
  });

export const boletoCharge = (overrides: Record<string, unknown> = {}) =>
  validPix({
    method: 'boleto',
    payer: {
      name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25',
      address_zip: '01310-100', address_line: 'Avenida Paulista', address_number: '1000', address_city: 'São Paulo', address_state: 'SP',
    },
    ...overrides,
  });

/** The record in a create answer (`data` without the two fields that repeat it), once they are checked. */
export function recordOf(answer: any) {
  const { invoice_id, qr_code_pix, ...record } = answer.data;
  if (invoice_id !== record.secureId || qr_code_pix !== (record.pix?.qrCode ?? null)) {
    throw new Error(`create answered data.invoice_id ${invoice_id} and data.qr_code_pix ${qr_code_pix}, not the record's`);
  }
  return record;
}

/** Creates a charge and answers its record, as Search would answer it. */
export async function create(server: TestServer, body: unknown, token?: string) {
  const reply = await request(server, 'POST', '/api/v2/invoices', { body, ...(token && { token }) });
  if (reply.status !== 200) throw new Error(`create answered ${reply.status}: ${JSON.stringify(reply.body)}`);
  return recordOf(reply.body);
}

export const sandbox = (server: TestServer, id: number | string, action: string) =>
  request(server, 'POST', `/api/v2/sandbox/invoices/${id}/${action}`);

export const refund = (server: TestServer, id: number | string, body: Record<string, unknown> = {}) =>
  request(server, 'POST', `/api/v2/invoices/${id}/refund`, { body });

export const SAMPLE_3DS = { cavv: 'AAABBEg0VhI0VniQEjRWAAAAAAA=', xid: '0f6d2c5e-3b1f-4c55-9e1e-5a8a3c2b7d10', eci: '05', version: '2.2.0', referenceid: 'b7f1a6c4-2d0e-4f0a-8c8e-0b5d9e3f1a22' };

export const threeDS = (server: TestServer, id: number | string, values: Record<string, unknown> = SAMPLE_3DS) =>
  request(server, 'POST', `/api/v2/invoices/${id}/3ds`, { body: values });

/** A charge brought into the given status through the API. */
export async function chargeIn(server: TestServer, status: string): Promise<any> {
  switch (status) {
    case 'pending':
      return create(server, validPix());
    case 'waiting_3ds':
      return create(server, cardCharge(CARDS.requires3ds));
    case 'refused':
      return create(server, cardCharge(CARDS.declined));
    case 'paid':
      return (await sandbox(server, (await create(server, validPix())).id, 'pay')).body;
    case 'expired':
    case 'canceled': {
      const pending = await create(server, validPix());
      return (await sandbox(server, pending.id, status === 'expired' ? 'expire' : 'cancel')).body;
    }
    case 'refunded':
      return (await refund(server, (await chargeIn(server, 'paid')).id)).body;
    case 'chargedback':
      return (await sandbox(server, (await chargeIn(server, 'paid')).id, 'chargeback')).body;
  }
  throw new Error(`no recipe for ${status}`);
}
