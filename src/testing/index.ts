// `pinvoice/testing`: the sandbox inside a merchant's test suite (vitest, jest, node:test), no CLI
// involved. `startSandbox()` runs the real server in this process over a database of its own and
// answers its url, token, webhook secret, a typed client, the sandbox drivers and postback receivers.
// See docs/testing.md.
export { startSandbox } from './start.js';
export { connectProxy, type ConnectProxyOptions, type ProxyConnection, type ProxyEntry } from './proxy.js';
export { WebhookTimeoutError } from './webhooks.js';
export { RequestNotFoundError } from './request-not-found.js';
export { ApiRequestError } from '../client/errors.js';
export type {
  ChaosControl, ChaosRequest, ChaosRule, ClockControl, CreatedInvoice, CreateInvoiceRequest, Delivery, Difference, Engine, Enterprise, EventType,
  JournalEntry, NearMiss, NextOptions, PostbackBody, Problem, RefundRequest, RequestPattern, RequestWaitOptions, Sandbox, SandboxApi, SandboxClock,
  SandboxFixtures, SandboxOptions, SandboxRequests, StartSandbox, ThreeDSRequest, Transaction, WebhookReceiver, WriteOptions,
} from './types.js';
