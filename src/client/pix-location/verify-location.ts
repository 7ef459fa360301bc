// `pix verify`'s steps, in the order a payer's bank takes them (steps.ts names them): the code's
// checklist, the location fetched, its JWS read, the key found through jku and its certificates
// checked, the signature, then the charge held against the code. A step whose result later steps need
// stops the run there; the other checks all run, so one run names every fault it can see.
import { compactVerify, decodeProtectedHeader, importJWK, type ProtectedHeaderParameters } from 'jose';
import type { PixDecoding } from '../../domain/pix-decode.js';
import { checkAmount, checkStatus, checkTxid } from '../../domain/pix-location.js';
import { chainProblem, keyProblem, leafProblem, readX5c, thumbprint } from './certificates.js';
import { httpsGet, UnreachableError, type Fetched } from './fetch.js';
import { recordSteps, type Marks, type Step } from './steps.js';
import type { TrustedRoots } from './trust.js';

export { STEPS, type Failure, type Step, type StepId } from './steps.js';

export interface Verification {
  /** the URL fetched (with DPP and codMun), once the code gave a location */
  url?: string;
  steps: Step[];
  /** the JWS payload as fetched (verified or not: `verified` says) */
  payload?: unknown;
  /** every step up to the signature held */
  verified: boolean;
  /** valor.original in cents, once read */
  amountCents?: number;
  status?: string;
}

export interface VerifyOptions {
  roots: TrustedRoots;
  timeoutMs: number;
  /** IBGE code of the payer's municipality, sent as codMun */
  codMun: string;
  now: Date;
  userAgent: string;
}

type Jwk = Record<string, unknown>;
const ALGORITHMS = ['PS256', 'RS256'];
/** DPP, the date the payer means to pay, as the bank's calendar (São Paulo's) has it. */
const dateInBrazil = (now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(now);
const textOf = (value: unknown) => (typeof value === 'string' && value !== '' ? value : undefined);

export async function verifyLocation(decoded: PixDecoding, options: VerifyOptions): Promise<Verification> {
  const result: Verification = { steps: [], verified: false };
  result.steps = await recordSteps(async (marks) => {
    const url = locationUrl(decoded, options, marks);
    result.url = url.href;
    const jws = await fetchJws(url, options, marks);
    const header = readJws(jws, result, marks);
    const jwk = await findKey(header, url, options, marks);
    certificateSteps(jwk, header, url, options, marks);
    try {
      await compactVerify(jws, await importJWK(jwk as Parameters<typeof importJWK>[0], String(header.alg)), { algorithms: ALGORITHMS });
    } catch {
      marks.stop('signature', `the signature does not verify with key ${String(header.kid)}: the answer was altered, or signed with another key`);
    }
    marks.pass('signature', `${String(header.alg)} with key ${String(header.kid)}`);
    result.verified = true;
    payloadSteps(decoded, result, marks);
  });
  // the certificate checks do not stop the run: the signature alone does not make the answer verified
  result.verified &&= result.steps.slice(0, result.steps.findIndex((step) => step.id === 'signature') + 1).every((step) => step.ok);
  return result;
}

/** The https URL of the code's location, with the query a bank adds. */
function locationUrl(decoded: PixDecoding, options: VerifyOptions, { pass, stop }: Marks): URL {
  const location = decoded.fields.location;
  if (!decoded.valid) stop('code', `${decoded.problems.length} problem(s): ${[...new Set(decoded.problems.map((p) => p.rule))].join(', ')}`, 'invalid-code');
  if (location === null) return stop('code', 'a static code (a pix key) has no location to fetch; only a dynamic code can be verified', 'invalid-code');
  let url: URL;
  try {
    url = new URL(`https://${location}`);
  } catch {
    return stop('code', `the location "${location}" is not a host and path`, 'invalid-code');
  }
  url.searchParams.set('DPP', dateInBrazil(options.now));
  url.searchParams.set('codMun', options.codMun);
  pass('code', `dynamic, location ${location}`);
  return url;
}

async function fetchStep(id: 'fetch' | 'jwks', url: URL, accept: string, options: VerifyOptions, marks: Marks): Promise<Fetched> {
  let answer: Fetched;
  try {
    answer = await httpsGet(url, { ca: options.roots.pem, timeoutMs: options.timeoutMs, accept, userAgent: options.userAgent });
  } catch (error) {
    if (error instanceof UnreachableError) return marks.stop(id, error.message, 'unreachable');
    throw error;
  }
  if (answer.status !== 200) marks.stop(id, `${url.origin} answered HTTP ${answer.status}${answer.statusText ? ` ${answer.statusText}` : ''}`, 'unreachable');
  return answer;
}

async function fetchJws(url: URL, options: VerifyOptions, marks: Marks): Promise<string> {
  const answer = await fetchStep('fetch', url, 'application/jose', options, marks);
  const type = answer.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/jose') marks.stop('fetch', `${url.origin} answered HTTP 200 with ${answer.contentType ? `content type ${answer.contentType}` : 'no content type'}, not application/jose`);
  marks.pass('fetch', `HTTP 200, application/jose, ${Buffer.byteLength(answer.body)} bytes`);
  return answer.body.trim();
}

/** The protected header, once it is a compact JWS of an allowed alg naming kid and jku; the payload kept as fetched. */
function readJws(jws: string, result: Verification, { pass, stop }: Marks): ProtectedHeaderParameters {
  const parts = jws.split('.');
  let header: ProtectedHeaderParameters;
  try {
    if (parts.length !== 3) throw new Error('parts');
    header = decodeProtectedHeader(jws);
    result.payload = JSON.parse(Buffer.from(parts[1]!, 'base64url').toString('utf8'));
  } catch {
    return stop('jws', 'the answer is not a compact JWS with a JSON payload (header.payload.signature, base64url)');
  }
  if (!ALGORITHMS.includes(String(header.alg))) stop('jws', `alg is ${JSON.stringify(header.alg ?? null)}; a pix location signs with PS256 or RS256`);
  pass('jws', `alg ${String(header.alg)}`);
  const missing = [!textOf(header.kid) && 'kid', !textOf(header.jku) && 'jku'].filter(Boolean);
  if (missing.length > 0) stop('header', `the protected header has no ${missing.join(' and no ')}`);
  pass('header', `kid ${String(header.kid)}`);
  return header;
}

/** The JWK the header names, from the JWKS at its jku, fetched only from the location's own host. */
async function findKey(header: ProtectedHeaderParameters, url: URL, options: VerifyOptions, marks: Marks): Promise<Jwk> {
  const { pass, stop } = marks;
  let jku: URL;
  try {
    jku = new URL(String(header.jku));
  } catch {
    return stop('jku', `jku "${String(header.jku)}" is not a URL`);
  }
  if (jku.protocol !== 'https:') stop('jku', `jku ${jku.href} is not https`);
  // a key from anywhere else would let whoever serves the JWS choose the key it is checked with
  if (jku.hostname.toLowerCase() !== url.hostname.toLowerCase()) stop('jku', `jku ${jku.href} is on ${jku.hostname}, not on the location's host ${url.hostname}: not fetched`);
  pass('jku', jku.href);
  const answer = await fetchStep('jwks', jku, 'application/json', options, marks);
  let keys: unknown[];
  try {
    const parsed = JSON.parse(answer.body) as { keys?: unknown };
    if (!Array.isArray(parsed.keys)) throw new Error('keys');
    keys = parsed.keys;
  } catch {
    return stop('jwks', `${jku.origin} answered HTTP 200 without a JWKS (JSON with a "keys" list)`);
  }
  pass('jwks', `${keys.length} key(s)`);
  const kidOf = (key: unknown) => (typeof key === 'object' && key !== null ? (key as Jwk).kid : undefined);
  const jwk = keys.find((key) => kidOf(key) === header.kid) as Jwk | undefined;
  const held = keys.map(kidOf).filter((kid) => typeof kid === 'string');
  if (!jwk) return stop('kid', `no key "${String(header.kid)}" in the JWKS (it holds ${held.length > 0 ? held.join(', ') : 'no kid'})`);
  pass('kid', `${String(jwk.kty)} key ${String(header.kid)}`);
  return jwk;
}

function certificateSteps(jwk: Jwk, header: ProtectedHeaderParameters, url: URL, options: VerifyOptions, marks: Marks): void {
  const chain = readX5c(jwk.x5c);
  if (typeof chain === 'string') return marks.stop('x5c', chain);
  marks.pass('x5c', `${chain.length} certificate(s)`);
  const leaf = chain[0]!;
  marks.check('chain', chainProblem(chain, options.roots, options.now), 'issued by a trusted CA');
  marks.check('leaf', leafProblem(leaf, url.hostname, options.now), `valid until ${leaf.validTo}, for ${url.hostname}`);
  const given = header['x5t#S256'];
  const own = thumbprint(leaf);
  marks.check('x5t', typeof given !== 'string' ? 'the protected header has no x5t#S256' : given === own ? undefined : `x5t#S256 is ${given}, the certificate's is ${own}`, own);
  marks.check('key', keyProblem(jwk, leaf), 'the same RSA key');
}

function payloadSteps(decoded: PixDecoding, result: Verification, { pass, fail }: Marks): void {
  const txid = checkTxid(decoded.fields, result.payload);
  (txid.ok ? pass : fail)('txid', txid.message);
  const amount = checkAmount(decoded.fields, result.payload);
  result.amountCents = amount.cents;
  (amount.ok ? pass : fail)('amount', amount.message);
  const status = checkStatus(result.payload);
  result.status = status.status;
  if (status.ok) pass('status', status.message);
  else fail('status', status.message, status.status === undefined ? 'unverified' : 'not-payable');
}
