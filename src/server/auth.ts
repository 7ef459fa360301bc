// Bearer authentication: the token names the company; everything after it is scoped to that company.
import type { FastifyRequest } from 'fastify';
import { unauthorized } from './errors.js';
import type { Company, Store } from './store/port.js';

const BEARER = /^Bearer[ ]+([\x21-\x7e]+)[ ]*$/i;

export async function authenticate(store: Store, request: FastifyRequest): Promise<Company> {
  const header = request.headers.authorization;
  if (!header) throw unauthorized('Send the header "Authorization: Bearer <access token>".', false);
  const match = BEARER.exec(header);
  if (!match?.[1]) throw unauthorized('The Authorization header must be "Bearer <access token>".', true);
  const company = await store.companies.authenticate(match[1]);
  if (!company) throw unauthorized('The access token is not valid.', true);
  return company;
}
