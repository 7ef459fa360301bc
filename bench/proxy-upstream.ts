// The upstream of bench/proxy.ts, in its own process: bare node:http answering
// `GET /api/v2/invoices?id=N` (bearer token required) with a production-style Search Transaction
// record of about 3 KB, its bytes made once per id, so that the upstream is never what sets the pace.
// The records have production's habits as test/support/production-gateway.ts has them (bench/ does
// not import test/): six fraction digits on timestamps, members the contract does not list, a
// snake_case `invoice` block, nginx's headers; so the proxy's checks find what they would find there.
// It receives {count} over IPC and replies with {url, token, ids}.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildPixCode } from '../src/domain/pix.js';

const TOKEN = 'prod_live_bench_0123456789abcdef';
const FIRST_ID = 4242;

function record(id: number): Record<string, unknown> {
  const amount = 1000 + ((id * 7919) % 90_000);
  const secureId = `INV-1795650000-${id}`;
  const at = `2026-11-25T23:38:${String(id % 60).padStart(2, '0')}.443211Z`;
  const fee = Math.round(amount * 0.0099);
  const qrCode = buildPixCode({ merchantName: 'Loja Exemplo', merchantCity: 'SAO PAULO', amountCents: amount, url: `pix.gateway-prod.example/qr/v2/${secureId}` });
  const person = { name: 'Maria Silva', email: 'maria.silva@example.com', phone: '11987654321' };
  return {
    id, secureId, companyId: 17, amount, installments: 1, status: id % 3 === 0 ? 'paid' : 'pending', paymentMethod: 'pix',
    createdAt: at, updatedAt: at, paidAt: id % 3 === 0 ? at : null, refundedAmount: 0, refusedReason: null, postbackUrl: '',
    traceable: false, externalRef: null, metadata: null, ip: null, delivery: null, shipping: null, boleto: null, card: null,
    card_associate: null, pix: { qrCode },
    client: { id: 9001, ...person, cpf_cnpj: '52998224725', created_at: '2025-03-14T12:00:05.000000Z', updated_at: '2025-03-14T12:00:05.000000Z' },
    customer: {
      id: 7001, ...person, birthdate: null, externalRef: null, createdAt: '2025-03-14T12:00:05.000000Z', document: { number: '52998224725', type: 'cpf' },
      address: { city: 'São Paulo', complement: null, country: 'BR', neighborhood: 'Bela Vista', state: 'SP', street: 'Avenida Paulista', streetNumber: '1578', zipCode: '01310200' },
    },
    enterprise: {
      id: 17, cnpj: '11.222.333/0001-81', company_type: 'LTDA', corporate_reason: 'Loja Exemplo Comercio Digital LTDA', fantasy_name: 'Loja Exemplo',
      url_website: 'https://loja.example.com.br', address: 'Avenida Paulista', address_city: 'São Paulo', address_number: '1000',
      address_postal_code: '01310-100', address_province: 'Bela Vista', address_state: 'SP', bank_account: '123456', bank_agency: '0001',
      bank_digit: '7', bank_name: 'Banco Exemplo S.A.', bank_type: 'corrente', amount_invoice_total: 1250000, balance_bank_slip: 0,
      balance_card: 45000, balance_pix: 120500, blocked_bank_slip: false, blocked_card: false, blocked_pix: false, blocked_system: false, is_custom: false,
      create_at: '2025-01-10T13:02:44.000000Z', update_at: at,
    },
    fee: { estimatedFee: fee, fixedAmount: 0, netAmount: amount - fee, spreadPercentage: 0.99 },
    invoice: {
      id, invoice_id: secureId, invoice_id_external: null, status: id % 3 === 0 ? 'paid' : 'pending', payment_method: 'pix', is_pix: true,
      is_bank_slip: false, is_credit_card: false, postback_url: '', qr_code_pix: qrCode, token_checkout: `tk${String(id).padStart(30, '0')}`,
      value_platform: fee, value_seller: amount - fee, value_total: amount, created_at: at, updated_at: at, nsu: String(id).padStart(6, '0'),
    },
    items: [{ title: 'Assinatura mensal', quantity: 1, unitPrice: amount, tangible: false, externalRef: null }],
    financial_movements: [], refunds: [], splits: [], timeline: [],
    antifraud: { score: 12, provider: 'clearsale' }, gateway_reference: 'gw_9f8e7d',
  };
}

const HEADERS = { server: 'nginx', 'content-type': 'application/json', 'cache-control': 'no-cache, private' };
const refusal = (response: ServerResponse, status: number, message: string) =>
  response.writeHead(status, HEADERS).end(JSON.stringify({ message }));

process.once('message', ({ count }: { count: number }) => {
  const ids = Array.from({ length: count }, (_, k) => FIRST_ID + k);
  // keyed by the request's whole target, as it arrives: no URL parsing per request
  const answers = new Map(ids.map((id) => [`/api/v2/invoices?id=${id}`, Buffer.from(JSON.stringify(record(id)))]));
  const server = createServer((request, response) => {
    request.resume();
    if (request.headers.authorization !== `Bearer ${TOKEN}`) return refusal(response, 401, 'Unauthenticated.');
    const body = answers.get(request.url ?? '');
    if (!body) return refusal(response, 404, 'Transaction not found.');
    response.writeHead(200, { ...HEADERS, 'content-length': body.length }).end(body);
  });
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1', () => process.send?.({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, token: TOKEN, ids }));
});
process.on('disconnect', () => process.exit(0));
