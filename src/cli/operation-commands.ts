// Which command a person runs for each API operation: messages say `pinvoice invoice refund`, never the
// specification's "Create Refunded", which names nothing a person can type. The one table of it; a unit
// test checks that every operation has its command and that each command exists in the program.
import type { OperationId } from '../client/operations.js';

/** The command that calls each operation (the first of several, where several do). */
export const COMMAND_OF_OPERATION: Readonly<Record<OperationId, string>> = {
  createInvoice: 'invoice create',
  searchTransaction: 'invoice list',
  getTransaction: 'invoice get',
  createRefund: 'invoice refund',
  activate3ds: 'invoice 3ds',
  publicInvoice: 'invoice open',
  sandbox_pay: 'sandbox pay',
  sandbox_expire: 'sandbox expire',
  sandbox_cancel: 'sandbox cancel',
  sandbox_chargeback: 'sandbox chargeback',
  sandboxClock: 'sandbox clock',
  sandboxClockAdvance: 'sandbox clock advance',
  sandboxClockSet: 'sandbox clock set',
  sandboxClockReset: 'sandbox clock reset',
  sandboxChaos: 'sandbox chaos',
  sandboxChaosSet: 'sandbox chaos set',
  sandboxChaosClear: 'sandbox chaos clear',
  sandboxWebhookSigning: 'sandbox webhook-signing',
  sandboxWebhookSigningSet: 'sandbox webhook-signing',
  sandboxDashboardLink: 'dashboard',
  sandboxScenarios: 'sandbox scenarios',
  sandboxRequests: 'logs list',
  sandboxRequestsStream: 'logs tail',
  sandboxRequest: 'logs show',
  sandboxRequestsFind: 'logs list',
  sandboxRequestsClear: 'logs clear',
  companyInfos: 'whoami',
  webhookSecret: 'webhooks secret',
  listEvents: 'events list',
  getEvent: 'events list',
  resendEvent: 'events resend',
  openapi: 'openapi',
  health: 'serve',
};

/** "`pinvoice invoice refund`": how a message names the operation. */
export const commandOf = (id: OperationId): string => `\`pinvoice ${COMMAND_OF_OPERATION[id]}\``;
