// Generated from the operation table (src/api/operations.ts) by test/unit/client-operations.test.ts, which
// fails when this file no longer matches it: run that test with -u to write it again. Do not edit by hand.
// Each operation's name (for messages) and path; `extension` for those only `pinvoice serve` has, named
// as the CLI says a gateway lacks them.
export const OPERATIONS = {
  createInvoice: { name: 'Create Invoices', path: '/api/v2/invoices' },
  searchTransaction: { name: 'Search Transaction', path: '/api/v2/invoices' },
  getTransaction: { name: 'Search Transaction (by path)', path: '/api/v2/invoices/{id}' },
  createRefund: { name: 'Create Refunded', path: '/api/v2/invoices/{id}/refund' },
  activate3ds: { name: 'Active 3ds', path: '/api/v2/invoices/{id}/3ds' },
  publicInvoice: { name: 'invoices public', path: '/api/v2/public/invoices/{token_checkout}' },
  sandbox_pay: { name: 'Sandbox: pay', path: '/api/v2/sandbox/invoices/{id}/pay', extension: 'sandbox controls' },
  sandbox_expire: { name: 'Sandbox: expire', path: '/api/v2/sandbox/invoices/{id}/expire', extension: 'sandbox controls' },
  sandbox_cancel: { name: 'Sandbox: cancel', path: '/api/v2/sandbox/invoices/{id}/cancel', extension: 'sandbox controls' },
  sandbox_chargeback: { name: 'Sandbox: chargeback', path: '/api/v2/sandbox/invoices/{id}/chargeback', extension: 'sandbox controls' },
  sandboxClock: { name: 'Sandbox: clock', path: '/api/v2/sandbox/clock', extension: 'sandbox controls' },
  sandboxClockAdvance: { name: 'Sandbox: advance the clock', path: '/api/v2/sandbox/clock/advance', extension: 'sandbox controls' },
  sandboxClockSet: { name: 'Sandbox: set the clock', path: '/api/v2/sandbox/clock', extension: 'sandbox controls' },
  sandboxClockReset: { name: 'Sandbox: reset the clock', path: '/api/v2/sandbox/clock', extension: 'sandbox controls' },
  sandboxChaos: { name: 'Sandbox: postback chaos', path: '/api/v2/sandbox/chaos', extension: 'sandbox controls' },
  sandboxChaosSet: { name: 'Sandbox: set postback chaos', path: '/api/v2/sandbox/chaos', extension: 'sandbox controls' },
  sandboxChaosClear: { name: 'Sandbox: clear postback chaos', path: '/api/v2/sandbox/chaos', extension: 'sandbox controls' },
  sandboxWebhookSigning: { name: 'Sandbox: webhook signing key', path: '/api/v2/sandbox/webhook-signing', extension: 'sandbox controls' },
  sandboxWebhookSigningSet: { name: 'Sandbox: set the webhook signing key', path: '/api/v2/sandbox/webhook-signing', extension: 'sandbox controls' },
  sandboxDashboardLink: { name: 'Sandbox: dashboard sign-in link', path: '/api/v2/sandbox/dashboard/links', extension: 'sandbox controls' },
  sandboxScenarios: { name: 'Sandbox: scenarios', path: '/api/v2/sandbox/scenarios', extension: 'sandbox controls' },
  sandboxRequests: { name: 'Sandbox: requests', path: '/api/v2/sandbox/requests', extension: 'sandbox controls' },
  sandboxRequestsStream: { name: 'Sandbox: request stream', path: '/api/v2/sandbox/requests/stream', extension: 'sandbox controls' },
  sandboxRequest: { name: 'Sandbox: one request', path: '/api/v2/sandbox/requests/{id}', extension: 'sandbox controls' },
  sandboxRequestsFind: { name: 'Sandbox: find requests', path: '/api/v2/sandbox/requests/find', extension: 'sandbox controls' },
  sandboxRequestsClear: { name: 'Sandbox: clear the journal', path: '/api/v2/sandbox/requests', extension: 'sandbox controls' },
  companyInfos: { name: 'Company Infos', path: '/api/v2/company' },
  webhookSecret: { name: 'Webhook secret', path: '/api/v2/webhooks/secret', extension: 'webhook secret endpoint' },
  listEvents: { name: 'Postback events of a charge', path: '/api/v2/invoices/{id}/events', extension: 'postback event history' },
  getEvent: { name: 'Postback event', path: '/api/v2/events/{event_id}', extension: 'postback event history' },
  resendEvent: { name: 'Resend a postback event', path: '/api/v2/events/{event_id}/resend', extension: 'postback event history' },
  openapi: { name: 'OpenAPI document', path: '/openapi.json' },
  health: { name: 'Health', path: '/health' },
} as const;

export type OperationId = keyof typeof OPERATIONS;
