// The pix code's location, as a payer's bank fetches it: `GET /qr/v2/<txid>` answers the charge as a
// compact JWS (application/jose), `GET /qr/v2/jwks.json` the keys to verify it with. No token: the
// txid (random, 32 characters) is the key, as the checkout token is the page's.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PixLocationFault } from '../../api/sandbox.js';
import { ApiError } from '../errors.js';
import type { ServerContext } from '../invoices/context.js';
import { pixLocationFault } from '../sandbox/chaos.js';
import { companyContext } from '../sandbox/company-time.js';
import { alterSignature, signPayload, unknownKid, type LocationSigner } from './jws.js';
import { LOCATION_PATH } from './paths.js';
import { pixChargePayload } from './payload.js';

/** A txid as the contract allows it: 26 to 35 letters and digits; anything else is not looked up. */
const TXID_SHAPE = /^[A-Za-z0-9]{26,35}$/;
/** codMun is the IBGE code of the payer's municipality (7 digits), DPP a payment date (YYYY-MM-DD). */
const COD_MUN = /^\d{7}$/;
const DPP = /^\d{4}-\d{2}-\d{2}$/;
const FOREIGN_JKU = `https://jwks.invalid${LOCATION_PATH}/jwks.json`;
const RETRY_AFTER_SECONDS = '30';

export interface LocationOptions {
  signer: () => Promise<LocationSigner>;
  /** host[:port] of the location as the codes carry it (the jku is on the same host) */
  host: () => string;
}

function checkQuery(query: Record<string, string | undefined>): void {
  if (query.codMun !== undefined && !COD_MUN.test(query.codMun)) throw new ApiError(400, 'bad_request', 'codMun must be an IBGE municipality code of 7 digits.');
  if (query.DPP !== undefined && !(DPP.test(query.DPP) && !Number.isNaN(Date.parse(query.DPP)))) throw new ApiError(400, 'bad_request', 'DPP must be a date, YYYY-MM-DD.');
}

const notFound = () => new ApiError(404, 'not_found', 'No pix charge at this location.');

export function registerPixLocation(app: FastifyInstance, ctx: ServerContext, options: LocationOptions): void {
  const jku = (request: FastifyRequest) => `${request.protocol}://${options.host()}${LOCATION_PATH}/jwks.json`;

  app.get(`${LOCATION_PATH}/jwks.json`, async (_request, reply) => {
    const signer = await options.signer();
    return reply.header('cache-control', 'no-store').type('application/jwk-set+json').send(signer.jwks());
  });

  app.get(`${LOCATION_PATH}/:txid`, async (request: FastifyRequest, reply: FastifyReply) => {
    const { txid } = request.params as { txid: string };
    checkQuery(request.query as Record<string, string | undefined>);
    if (!TXID_SHAPE.test(txid)) throw notFound();
    const invoice = await ctx.reads.invoices.byPixTxid(txid);
    const company = invoice && (await ctx.reads.companies.get(invoice.company_id));
    if (!invoice || !company) throw notFound();
    const fault = pixLocationFault(company, invoice.id);
    if (fault === 'unavailable') {
      throw new ApiError(503, 'server_busy', 'The pix location is unavailable (sandbox chaos: pix_location unavailable).', undefined, { 'retry-after': RETRY_AFTER_SECONDS });
    }
    const payload = pixChargePayload(invoice, company, companyContext(ctx, company).clock());
    const jws = await signedAs(fault, payload, await options.signer(), jku(request));
    return reply.header('cache-control', 'no-store').type('application/jose').send(jws);
  });
}

async function signedAs(fault: PixLocationFault | null, payload: unknown, signer: LocationSigner, jku: string): Promise<string> {
  if (fault === 'expired_certificate') return signPayload(payload, { key: signer.expired, jku });
  if (fault === 'unknown_kid') return signPayload(payload, { key: signer.current, jku, kid: unknownKid() });
  if (fault === 'foreign_jku') return signPayload(payload, { key: signer.current, jku: FOREIGN_JKU });
  const jws = await signPayload(payload, { key: signer.current, jku });
  return fault === 'bad_signature' ? alterSignature(jws) : jws;
}
