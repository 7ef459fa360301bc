// The steps of `pix verify`, named once (the checklist's words, --json's ids), and how a run records
// them: a step passes, fails (with why, which decides the exit code), or stops the run when later
// steps need what it failed to give; the steps a stop kept from running are listed as not run.

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

class Stop extends Error {}

export interface Marks {
  pass(id: StepId, message: string): void;
  fail(id: StepId, message: string, failure?: Failure): void;
  /** fails the step and ends the run: what follows needs what it did not give */
  stop(id: StepId, message: string, failure?: Failure): never;
  /** passes or fails on a problem (undefined: none) */
  check(id: StepId, problem: string | undefined, okText: string): void;
}

/** Runs `body` with the marks; answers every step in order, those it did not reach as not run. */
export async function recordSteps(body: (marks: Marks) => Promise<void>): Promise<Step[]> {
  const steps: Step[] = [];
  const fail = (id: StepId, message: string, failure: Failure = 'unverified') => void steps.push({ id, ok: false, message, failure });
  const marks: Marks = {
    pass: (id, message) => void steps.push({ id, ok: true, message }),
    fail,
    stop(id, message, failure) {
      fail(id, message, failure);
      throw new Stop();
    },
    check: (id, problem, okText) => (problem === undefined ? marks.pass(id, okText) : fail(id, problem)),
  };
  try {
    await body(marks);
  } catch (error) {
    if (!(error instanceof Stop)) throw error;
  }
  return (Object.keys(STEPS) as StepId[]).map((id) => steps.find((step) => step.id === id) ?? { id, ok: null, message: 'not run: an earlier step failed' });
}
