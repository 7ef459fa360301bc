// Starts the real app on a free loopback port over a store, and talks to it over HTTP. Every
// response is checked against the OpenAPI document before a test sees it.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { createApp, type AppOptions } from '../../src/server/app.js';
import { addCompany } from '../../src/server/seed.js';
import { openStore, type SqliteStore } from '../../src/server/store/index.js';
import type { Store } from '../../src/server/store/port.js';
import { openPostgresStore, type PostgresStore } from '../../src/server/store/postgres/index.js';
import { createResponseChecker } from './openapi-check.js';
import { ENGINE, postgresDatabase } from './engine.js';

export { ENGINE } from './engine.js';
export type TestStore = SqliteStore | PostgresStore;

/** A PostgreSQL database for a test server: a new one, or for a `db` path the one named after it. */
async function postgresStore(db: string | undefined): Promise<PostgresStore> {
  return openPostgresStore(await postgresDatabase(db && db !== ':memory:' ? db : undefined));
}

/** Rows of a query on the test server's own database, whichever the engine (`?` placeholders). */
export async function sql<T = any>(server: { store: Store }, text: string, ...params: unknown[]): Promise<T[]> {
  const store = server.store as TestStore;
  if (store.engine === 'sqlite') return store.db.prepare(text).all(...params) as T[];
  let n = 0;
  return (await store.pool.query(text.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
}

const checkResponse = createResponseChecker();

export interface TestServer {
  url: string;
  app: FastifyInstance;
  store: TestStore;
  /** the token of the first company */
  token: string;
  close(): Promise<void>;
}

export interface Reply<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function startTestServer(options: Partial<Omit<AppOptions, 'store'>> & { store?: TestStore; db?: string; token?: string } = {}): Promise<TestServer> {
  const store = options.store ?? (ENGINE === 'postgres' ? await postgresStore(options.db) : openStore(options.db ?? ':memory:'));
  const [first] = await store.companies.list();
  const token = options.token ?? 'pinv_test_first_company_token';
  if (!first) await addCompany(store, { token }, (n) => randomBytes(n), new Date());
  // Postbacks are delivered only where a test asks for it (the default charges name merchant.example.com).
  const app = createApp({ version: 'test', logError: () => undefined, logLine: () => undefined, postbacks: false, ...options, store });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    app,
    store,
    token,
    async close() {
      await app.close();
      await store.close();
    },
  };
}

export async function addTestCompany(server: TestServer, token: string, name = 'Second Company'): Promise<number> {
  return (await addCompany(server.store, { token, fantasyName: name }, (n) => randomBytes(n), new Date())).id;
}

export interface RequestOptions {
  token?: string | null;
  body?: unknown;
  /** a raw body, sent as is */
  raw?: string | Buffer;
  headers?: Record<string, string>;
}

export async function request<T = any>(server: TestServer, method: string, path: string, options: RequestOptions = {}): Promise<Reply<T>> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? server.token : options.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  let body: string | Buffer | undefined = options.raw;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['content-type'] ??= 'application/json';
  }
  const response = await fetch(`${server.url}${path}`, { method, headers, body });
  const text = await response.text();
  const parsed = text === '' ? undefined : (JSON.parse(text) as T);
  checkResponse(method, path, response.status, parsed, response.headers);
  return { status: response.status, headers: response.headers, body: parsed as T };
}

export const validPix = (overrides: Record<string, unknown> = {}) => ({
  method: 'pix',
  total_price_cents: 1990,
  product_fisical: 'true',
  ip_payer: '203.0.113.7',
  postback_url: 'https://merchant.example.com/postbacks',
  payer: { name: 'Fulano de Tal', email: 'fulano@example.com', cpf_cnpj: '529.982.247-25', phone: '+5511999998888' },
  items: [{ name: 'Camiseta', description: 'Azul, M', quantity: 1, unit_price: 1990 }],
  ...overrides,
});
