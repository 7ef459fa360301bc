// `pix verify`'s steps, in the order a payer's bank takes them: the code's checklist, the location
// fetched, its JWS read, the key found through jku and its certificates checked, the signature, then the
// charge held against the code. A step whose result later steps need stops the run there (the rest are
// "not run"); the other checks all run, so one run names every fault it can see.
import { compactVerify, decodeProtectedHeader, importJWK, type ProtectedHeaderParameters } from 'jose';
import type { X509Certificate } from 'node:crypto';
import type { PixDecoding } from '../../../domain/pix-decode.js';
import { checkAmount, checkStatus, checkTxid } from '../../../domain/pix-location.js';
import { chainProblem, keyProblem, leafProblem, readX5c, thumbprint } from './certificates.js';
import { httpsGet, UnreachableError, type Fetched } from './fetch.js';
import type { TrustedRoots } from './trust.js';

export const STEPS = {
  code: 'the code keeps the BCB checklist',
  fetch: 'location fetched over https',
  jws: 'answer is a compact JWS (PS256 or RS256)',
  header: 'header names kid and jku',
  jku: 'jku is https on the location host',
  jwks: 'JWKS fetched',
  kid: 'kid found in the JWKS',
  x5c: 'key carries its certificates (x5c)',
  chain: 'chain leads to a trusted CA',
  leaf: 'certificate valid now, for the host',
  x5t: 'x5t#S256 is the certificate thumbprint',
  key: 'JWK is the certificate key',
  signature: 'signature verifies',
  txid: 'txid matches the code',
  amount: 'amount matches the code',
  status: 'charge open to payment (ATIVA)',
} as const;
export type StepId = keyof typeof STEPS;

/** Why a step failed, which decides the exit code (src/cli/errors.ts): 11, 13, 12, 14. */
export type Failure = 'invalid-code' | 'unreachable' | 'unverified' | 'not-payable';
export interface Step { id: StepId; ok: boolean | null; message: string; failure?: Failure }

export interface Verification {
  /** the URL fetched (with DPP and codMun), once the code gave a location */
  url?: string;
  steps: Step[];
  /** the JWS payload as fetched (verified or not: `verified` says) */
  payload?: unknown;
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

const ALGORITHMS = ['PS256', 'RS256'];
/** DPP, the date the payer means to pay, as the bank's calendar (São Paulo's) has it. */
const dateInBrazil = (now: Date) => new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(now);

class Stop extends Error {}

export async function verifyLocation(decoded: PixDecoding, options: VerifyOptions): Promise<Verification> {
  const result: Verification = { steps: [], verified: false };
  const pass = (id: StepId, message: string) => void result.steps.push({ id, ok: true, message });
  const fail = (id: StepId, message: string, failure: Failure = 'unverified') => void result.steps.push({ id, ok: false, message, failure });
  const stop = (id: StepId, message: string, failure?: Failure): never => {
    fail(id, message, failure);
    throw new Stop();
  };
  try {
    await run(decoded, options, result, { pass, fail, stop });
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  const done = new Set(result.steps.map((step) => step.id));
  for (const id of Object.keys(STEPS) as StepId[]) if (!done.has(id)) result.steps.push({ id, ok: null, message: 'not run: an earlier step failed' });
  const order = Object.keys(STEPS);
  result.steps.sort((a, b) => order.indexOf(a.id) - order.indexOf(b.id));
  return result;
}

interface Marks {
  pass(id: StepId, message: string): void;
  fail(id: StepId, message: string, failure?: Failure): void;
  stop(id: StepId, message: string, failure?: Failure): never;
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

async function run(decoded: PixDecoding, options: VerifyOptions, result: Verification, marks: Marks): Promise<void> {
  const { pass, fail, stop } = marks;
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
  result.url = url.href;
  pass('code', `dynamic, location ${location}`);

  const answer = await fetchStep('fetch', url, 'application/jose', options, marks);
  const type = answer.contentType?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/jose') stop('fetch', `${url.origin} answered HTTP 200 with ${answer.contentType ? `content type ${answer.contentType}` : 'no content type'}, not application/jose`);
  pass('fetch', `HTTP 200, application/jose, ${Buffer.byteLength(answer.body)} bytes`);

  const jws = answer.body.trim();
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

  const kid = typeof header.kid === 'string' && header.kid !== '' ? header.kid : undefined;
  const jkuText = typeof header.jku === 'string' && header.jku !== '' ? header.jku : undefined;
  if (!kid || !jkuText) stop('header', `the protected header has no ${[!kid && 'kid', !jkuText && 'jku'].filter(Boolean).join(' and no ')}`);
  pass('header', `kid ${kid}`);

  let jku: URL;
  try {
    jku = new URL(jkuText!);
  } catch {
    return stop('jku', `jku "${jkuText}" is not a URL`);
  }
  if (jku.protocol !== 'https:') stop('jku', `jku ${jku.href} is not https`);
  // a key from anywhere else would let whoever serves the JWS choose the key it is checked with
  if (jku.hostname.toLowerCase() !== url.hostname.toLowerCase()) stop('jku', `jku ${jku.href} is on ${jku.hostname}, not on the location's host ${url.hostname}: not fetched`);
  pass('jku', jku.href);

  const jwks = await fetchStep('jwks', jku, 'application/json', options, marks);
  let keys: unknown[];
  try {
    const parsed = JSON.parse(jwks.body) as { keys?: unknown };
    if (!Array.isArray(parsed.keys)) throw new Error('keys');
    keys = parsed.keys;
  } catch {
    return stop('jwks', `${jku.origin} answered HTTP 200 without a JWKS (JSON with a "keys" list)`);
  }
  pass('jwks', `${keys.length} key(s)`);

  const jwk = keys.find((key): key is Record<string, unknown> => typeof key === 'object' && key !== null && (key as { kid?: unknown }).kid === kid);
  if (!jwk) {
    const kids = keys.map((key) => (key as { kid?: unknown })?.kid).filter((k) => typeof k === 'string');
    return stop('kid', `no key "${kid}" in the JWKS (it holds ${kids.length > 0 ? kids.join(', ') : 'no kid'})`);
  }
  pass('kid', `${String(jwk.kty)} key ${kid}`);

  const chain = readX5c(jwk.x5c);
  if (typeof chain === 'string') return stop('x5c', chain);
  pass('x5c', `${chain.length} certificate(s)`);
  certificateSteps(chain, jwk, header, url, options, marks);

  try {
    await compactVerify(jws, await importJWK(jwk as Parameters<typeof importJWK>[0], String(header.alg)), { algorithms: ALGORITHMS });
  } catch {
    return stop('signature', `the signature does not verify with key ${kid}: the answer was altered, or signed with another key`);
  }
  pass('signature', `${String(header.alg)} with key ${kid}`);
  result.verified = result.steps.every((step) => step.ok);

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

function certificateSteps(chain: X509Certificate[], jwk: Record<string, unknown>, header: ProtectedHeaderParameters, url: URL, options: VerifyOptions, marks: Marks): void {
  const leaf = chain[0]!;
  const mark = (id: StepId, problem: string | undefined, okText: string) => (problem === undefined ? marks.pass(id, okText) : marks.fail(id, problem));
  mark('chain', chainProblem(chain, options.roots, options.now), 'issued by a trusted CA');
  mark('leaf', leafProblem(leaf, url.hostname, options.now), `valid until ${leaf.validTo}, for ${url.hostname}`);
  const given = header['x5t#S256'];
  const own = thumbprint(leaf);
  mark('x5t', typeof given !== 'string' ? 'the protected header has no x5t#S256' : given === own ? undefined : `x5t#S256 is ${given}, the certificate's is ${own}`, own);
  mark('key', keyProblem(jwk, leaf), 'the same RSA key');
}
