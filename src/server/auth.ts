// Bearer authentication: the token names the company; everything after it is scoped to that company.
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.js';
import type { CompanyRow } from './store/companies.js';
import type { Store } from './store/index.js';

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i;

export function authenticate(store: Store, request: FastifyRequest): CompanyRow {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Send the header "Authorization: Bearer <access token>".', false);
  const match = BEARER.exec(header);
  if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <access token>".', true);
  const company = store.companies.authenticate(match[1]);
  if (!company) throw unauthorized('The access token is not valid.', true);
  return company;
}
