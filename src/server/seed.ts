// Sandbox companies: the one created on first start, and those added with `serve company add`.
import { cnpjCheckDigits, normalizeDocument } from '../domain/document.js';
import { alphanumeric } from '../domain/ids.js';
import type { CompanyProfile, FeeSchedules, Store, Writes } from './store/port.js';

export const DEFAULT_FEES: FeeSchedules = {
  pix: { spreadPercentage: 0.99, fixedAmount: 0 },
  credit_card: { spreadPercentage: 3.99, fixedAmount: 39 },
  boleto: { spreadPercentage: 0, fixedAmount: 349 },
};

export const TOKEN_PREFIX = 'pinv_test_';

export interface NewCompany {
  fantasyName?: string;
  corporateReason?: string;
  cnpj?: string;
  /** a fixed token (serve --token); otherwise one is generated */
  token?: string;
  /** a fixed webhook secret (a fixtures file); otherwise one is generated */
  webhookSecret?: string;
  /** fee schedules (a fixtures file); otherwise DEFAULT_FEES */
  fees?: FeeSchedules;
  /** the key of its postbacks' X-Webhook-Signature: its webhook secret (default), or this first token (kept to sign with) */
  signWith?: 'secret' | 'token';
}

export interface CreatedCompany {
  id: number;
  fantasyName: string;
  cnpj: string;
  /** the token in clear, to show once; never stored */
  token: string;
}

/** A valid numeric CNPJ for branch 0001, drawn from the bytes. */
export function randomCnpj(random: (n: number) => Uint8Array): string {
  const root = Array.from(random(8), (byte) => String(byte % 10)).join('');
  const base = `${root}0001`;
  return base + cnpjCheckDigits(base);
}

export function sandboxProfile(options: NewCompany, random: (n: number) => Uint8Array): CompanyProfile {
  const fantasy = options.fantasyName ?? 'Pinvoice Sandbox';
  return {
    cnpj: normalizeDocument(options.cnpj ?? randomCnpj(random)),
    company_type: 'LTDA',
    corporate_reason: options.corporateReason ?? `${fantasy} Ltda`,
    fantasy_name: fantasy,
    url_website: 'https://sandbox.example.com',
    address: 'Avenida Paulista',
    address_city: 'São Paulo',
    address_number: '1000',
    address_postal_code: '01310-100',
    address_province: 'Bela Vista',
    address_state: 'SP',
    bank_account: '123456',
    bank_agency: '0001',
    bank_digit: '7',
    bank_name: '001 - Banco do Brasil S.A.',
    bank_type: 'corrente',
  };
}

export function generateToken(random: (n: number) => Uint8Array): string {
  return TOKEN_PREFIX + alphanumeric(random(96), 40);
}

/** Adds a company and its first token in the caller's transaction. */
export async function insertCompany(tx: Writes, options: NewCompany, random: (n: number) => Uint8Array, now: Date): Promise<CreatedCompany> {
  const profile = sandboxProfile(options, random);
  const token = options.token ?? generateToken(random);
  const secret = options.webhookSecret ?? `whsec_${alphanumeric(random(96), 40)}`;
  const at = now.toISOString();
  const id = await tx.companies.create(profile, options.fees ?? DEFAULT_FEES, secret, at);
  const added = await tx.companies.addToken(id, token, at);
  if (options.signWith === 'token') await tx.companies.setSigningToken(id, { tokenId: added.id, token });
  return { id, fantasyName: profile.fantasy_name, cnpj: profile.cnpj, token };
}

export function addCompany(store: Store, options: NewCompany, random: (n: number) => Uint8Array, now: Date): Promise<CreatedCompany> {
  return store.transaction((tx) => insertCompany(tx, options, random, now));
}

/**
 * On a database without companies: the sandbox company (returned, to show its token once). With a
 * fixed token: make sure it opens the first company. One transaction, so processes starting together
 * on a new file seed it once.
 */
export async function seedStore(store: Store, token: string | undefined, random: (n: number) => Uint8Array, now: Date): Promise<CreatedCompany | undefined> {
  // Read first: a start with nothing to add writes nothing (a large file being checked refuses writes meanwhile).
  const [known] = await store.companies.list();
  if (known && (!token || (await store.companies.hasToken(token)))) return undefined;
  await writable(store);
  return store.transaction(async (tx) => {
    await tx.lock('pinvoice:seed');
    const [first] = await tx.companies.list();
    if (!first) return insertCompany(tx, { token }, random, now);
    if (token && !(await tx.companies.hasToken(token))) await tx.companies.addToken(first.id, token, now.toISOString());
    return undefined;
  });
}

/** Waits while the store checks a large file (writes are refused until the check is done). */
function writable(store: Store): Promise<void> {
  const checking = () => {
    const health = store.health();
    return health.status === 'degraded' && health.code === 'store_checking';
  };
  if (!checking()) return Promise.resolve();
  return new Promise((resolve) => {
    const off = store.onHealthChange(() => {
      if (checking()) return;
      off();
      resolve();
    });
  });
}
