// Where the payer's checkout page of a charge is (contract: `GET /checkout/{token_checkout}` on the
// API's own host), for `invoice open` and the record `invoice get` shows.
export function checkoutUrl(baseUrl: string, tokenCheckout: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/checkout/${encodeURIComponent(tokenCheckout)}`;
}
