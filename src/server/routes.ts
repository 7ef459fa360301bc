// One handler per operation of the table; each returns the answer, the app sends it.
import type { FastifyRequest } from 'fastify';
import type { OperationId } from '../api/operations.js';
import { buildOpenApi } from '../api/openapi.js';
import { validateCreateRequest } from '../api/validate.js';
import { notFound, validationFailed } from './errors.js';
import type { Answer } from './idempotency.js';
import type { ServerContext } from './invoices/context.js';
import { createInvoice } from './invoices/create.js';
import { toEnterprise, toTransaction } from './invoices/record.js';
import type { CompanyRow } from './store/companies.js';

export interface HandlerInput {
  ctx: ServerContext;
  request: FastifyRequest;
  company: CompanyRow | undefined;
  version: string;
}

type Handler = (input: HandlerInput) => Answer;

function requireCompany(company: CompanyRow | undefined): CompanyRow {
  if (!company) throw new Error('an authenticated operation ran without a company');
  return company;
}

function lookup({ ctx, company }: HandlerInput, ref: string): Answer {
  const owner = requireCompany(company);
  const row = ctx.store.invoices.find(owner.id, ref.trim());
  if (!row) throw notFound();
  return { status: 200, body: toTransaction(ctx.store, owner, row, ctx.clock()) };
}

let openApiCache: { version: string; doc: unknown } | undefined;

export const HANDLERS: Record<OperationId, Handler> = {
  createInvoice(input) {
    const checked = validateCreateRequest(input.request.body, input.ctx.clock());
    if (!checked.ok) throw validationFailed(checked.details);
    return { status: 200, body: createInvoice(input.ctx, requireCompany(input.company), checked.value) };
  },
  searchTransaction(input) {
    const { id } = input.request.query as { id?: string | string[] };
    if (id === undefined || id === '') throw validationFailed([{ path: 'query.id', message: 'is required' }]);
    if (Array.isArray(id)) throw validationFailed([{ path: 'query.id', message: 'must be given once' }]);
    return lookup(input, id);
  },
  getTransaction(input) {
    return lookup(input, (input.request.params as { id: string }).id);
  },
  companyInfos({ ctx, company }) {
    return { status: 200, body: toEnterprise(ctx.store, requireCompany(company), ctx.clock()) };
  },
  openapi({ version }) {
    if (openApiCache?.version !== version) openApiCache = { version, doc: buildOpenApi(version) };
    return { status: 200, body: openApiCache.doc };
  },
  health({ version }) {
    return { status: 200, body: { status: 'ok', version } };
  },
};
