// The sandbox's typed client: src/client's createClient (its HTTP, retries and typed errors), answering
// the records as the server sent them (`raw`), typed with the API's own schemas. The server is ours, so
// what the tolerant reader would smooth over is there as the schema says.
import type { ChaosRule, SandboxClock } from '../api/sandbox.js';
import type { Enterprise, Transaction } from '../api/schemas.js';
import { createClient } from '../client/index.js';
import { parseDuration } from '../base/duration.js';
import type { SandboxAction } from '../domain/status.js';
import type { ChaosControl, ClockControl, CreatedInvoice, SandboxApi } from './types.js';

export type Client = ReturnType<typeof createClient>;

export function sandboxClient(url: string, token: string, version: string): Client {
  return createClient({ baseUrl: url, token, version: `${version} (pinvoice/testing)` });
}

export function sandboxApi(client: Client): SandboxApi {
  return {
    createInvoice: async (body, options) => (await client.createInvoice(body, options?.idempotencyKey)).data as CreatedInvoice,
    getInvoice: async (ref) => (await client.getInvoice(ref)).raw as Transaction,
    refund: async (ref, body = {}, options) => (await client.refund(ref, body, options?.idempotencyKey)).raw as Transaction,
    activate3ds: async (ref, body, options) => (await client.complete3ds(ref, body, options?.idempotencyKey)).raw as Transaction,
    company: async () => (await client.company()).raw as Enterprise,
  };
}

export const drive = async (client: Client, ref: string | number, action: SandboxAction) => (await client.sandbox(ref, action)).raw as Transaction;

/** Seconds of '2h', '1h30m', … or a number of seconds; a RangeError names what it cannot read. */
function seconds(by: string | number): number {
  const value = typeof by === 'number' ? by : parseDuration(by);
  if (value === undefined || !Number.isInteger(value) || value <= 0) {
    throw new RangeError(`sandbox.clock.advance: ${JSON.stringify(by)} is not a duration: give whole seconds, or '90s', '45m', '2h', '3d', '1w', '1h30m'`);
  }
  return value;
}

export function clockControl(client: Client): ClockControl {
  return {
    advance: async (by) => (await client.clockAdvance(seconds(by))).raw as SandboxClock,
    set: async (at) => (await client.clockSet(at instanceof Date ? at.toISOString() : at)).raw as SandboxClock,
    reset: async () => (await client.clockReset()).raw as SandboxClock,
  };
}

export function chaosControl(client: Client): ChaosControl {
  return {
    set: async (rule) => (await client.chaosSet(rule)).raw as ChaosRule,
    clear: async () => (await client.chaosClear()).raw as ChaosRule,
  };
}
