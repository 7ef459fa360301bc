// The merchant's own code under test: the checkout turns an order into a pix charge at the gateway, with
// the shop's API key. In production `baseUrl` is the gateway's; in the tests, the sandbox's url and token.
export interface Order {
  id: string;
  totalCents: number;
  customer: { name: string; email: string; cpf: string };
}

export interface Gateway {
  baseUrl: string;
  apiKey: string;
}

/** Creates the order's pix charge; answers its id and the code to show the customer. */
export async function startPixCheckout(gateway: Gateway, order: Order): Promise<{ invoiceId: string; pixCode: string }> {
  const response = await fetch(`${gateway.baseUrl}/api/v2/invoices`, {
    method: 'POST',
    headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json', 'idempotency-key': `checkout-${order.id}` },
    body: JSON.stringify({
      method: 'pix',
      total_price_cents: order.totalCents,
      external_id: order.id,
      payer: { name: order.customer.name, email: order.customer.email, cpf_cnpj: order.customer.cpf.replace(/\D/g, '') },
    }),
  });
  if (!response.ok) throw new Error(`the gateway refused order ${order.id}: HTTP ${response.status} ${await response.text()}`);
  const { data } = (await response.json()) as { data: { invoice_id: string; qr_code_pix: string } };
  return { invoiceId: data.invoice_id, pixCode: data.qr_code_pix };
}
