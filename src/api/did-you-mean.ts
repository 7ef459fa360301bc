// What a field name that a schema does not know was probably meant to be, among the names it knows at
// that level: the same name spelt in another case or style (`postbackUrl`), a common synonym (`qty`), a
// known name it starts or ends (`postback` of `postback_url`, `zip` of `address_zip`), or a name a typo
// or two away (`emial`). Only one clear candidate is suggested: a guess that could mislead is worse than none.

/** "postback_URL" -> "postbackurl": case, underscores, hyphens and spaces do not tell names apart. */
const squash = (name: string) => name.toLowerCase().replace(/[^a-z0-9]/g, '');
/** "postbackUrl" -> "postback_url" */
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toLowerCase().replace(/[\s-]+/g, '_');

/** Names integrations use for fields of ours (squashed), each with the fields it may mean, in order of likelihood. */
const SYNONYMS: Record<string, readonly string[]> = {
  qty: ['quantity'], count: ['quantity'], amount: ['total_price_cents', 'amount_cents', 'unit_price'],
  value: ['total_price_cents', 'amount_cents'], total: ['total_price_cents'], price: ['unit_price', 'total_price_cents'],
  postback: ['postback_url'], webhook: ['postback_url'], webhookurl: ['postback_url'], callback: ['postback_url'],
  callbackurl: ['postback_url'], notificationurl: ['postback_url'], notifyurl: ['postback_url'],
  document: ['cpf_cnpj'], cpf: ['cpf_cnpj'], cnpj: ['cpf_cnpj'], taxid: ['cpf_cnpj'], documentnumber: ['cpf_cnpj'],
  mail: ['email'], phonenumber: ['phone'], telephone: ['phone'], mobile: ['phone'], cellphone: ['phone'], celular: ['phone'],
  cep: ['address_zip'], zipcode: ['address_zip'], postalcode: ['address_zip'], street: ['address_line'], address: ['address_line'],
  streetnumber: ['address_number'], number: ['address_number'], neighbourhood: ['address_neighborhood'], bairro: ['address_neighborhood'],
  district: ['address_neighborhood'], cidade: ['address_city'], uf: ['address_state'], estado: ['address_state'],
  title: ['name'], installments: ['installment'], parcelas: ['installment'], cvv: ['security_code'], cvc: ['security_code'],
  cvv2: ['security_code'], expmonth: ['month'], expirationmonth: ['month'], expyear: ['year'], expirationyear: ['year'],
  externalref: ['external_id'], reference: ['external_id'], orderid: ['external_id'], ip: ['ip_payer'], ipaddress: ['ip_payer'],
  payerip: ['ip_payer'], tangible: ['product_fisical'], productphysical: ['product_fisical'], physical: ['product_fisical'],
  paymentmethod: ['method'], customer: ['payer'], client: ['payer'], buyer: ['payer'], products: ['items'], cart: ['items'],
};

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of two neighbours each cost 1. */
export function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j] as number, (rows[i - 2]?.[j - 2] as number) + 1);
    }
  }
  return rows[a.length]?.[b.length] as number;
}

/** How many typos a name of this length may hold and still be recognised: none in 3 letters, one up to 6, two beyond. */
const tolerance = (length: number) => (length <= 3 ? 0 : length <= 6 ? 1 : 2);

/** The one candidate, or undefined when there is none or more than one. */
const only = (candidates: readonly string[]) => (new Set(candidates).size === 1 ? candidates[0] : undefined);

function closest(name: string, known: readonly string[]): string | undefined {
  const limit = tolerance(name.length);
  if (limit === 0) return undefined;
  const scored = known.map((candidate) => ({ candidate, distance: editDistance(name, squash(candidate)) })).filter((s) => s.distance <= limit);
  const best = Math.min(...scored.map((s) => s.distance));
  return only(scored.filter((s) => s.distance === best).map((s) => s.candidate));
}

/** The known field `name` was probably meant to be, or undefined. `name` is never suggested as itself. */
export function suggestField(name: string, known: readonly string[]): string | undefined {
  const squashed = squash(name);
  if (squashed === '' || name.length > 64) return undefined;
  const sameName = only(known.filter((candidate) => squash(candidate) === squashed && candidate !== name));
  if (sameName) return sameName;
  const synonym = Object.hasOwn(SYNONYMS, squashed) ? SYNONYMS[squashed]?.find((candidate) => known.includes(candidate)) : undefined;
  if (synonym) return synonym;
  const snaked = snake(name);
  const affix = only(known.filter((candidate) => candidate.startsWith(`${snaked}_`) || candidate.endsWith(`_${snaked}`)));
  return affix ?? closest(squashed, known);
}
