// The status machine of the contract: every status and every allowed transition, in one table.

export const STATUSES = [
  'pending',
  'waiting_3ds',
  'paid',
  'refused',
  'expired',
  'canceled',
  'refunded',
  'chargedback',
] as const;
export type Status = (typeof STATUSES)[number];

export const METHODS = ['pix', 'credit_card', 'boleto'] as const;
export type Method = (typeof METHODS)[number];

/** Allowed next statuses; `new` stands for the creation of the charge. */
const TRANSITIONS: Record<Status | 'new', readonly Status[]> = {
  new: ['pending', 'waiting_3ds', 'paid', 'refused'],
  pending: ['paid', 'expired', 'canceled'],
  waiting_3ds: ['paid', 'refused', 'canceled'],
  paid: ['refunded', 'chargedback'],
  refused: [],
  expired: [],
  canceled: [],
  refunded: [],
  chargedback: [],
};

/** The status a new charge starts in, per method (cards are decided at creation). */
export function initialStatuses(method: Method): readonly Status[] {
  return method === 'credit_card' ? ['paid', 'refused', 'waiting_3ds'] : ['pending'];
}

export function canTransition(from: Status | null, to: Status): boolean {
  return TRANSITIONS[from ?? 'new'].includes(to);
}

export function isFinal(status: Status): boolean {
  return TRANSITIONS[status].length === 0;
}

/**
 * What a status means for the payer: still waiting (for the payment or the 3-D Secure step: `--watch`
 * polls while a charge is in one), paid, failed (never paid, or the payment taken back by the payer),
 * or refunded by the merchant. Renderers colour statuses by it.
 */
export type StatusGroup = 'waiting' | 'paid' | 'failed' | 'refunded';

const GROUPS: Record<Status, StatusGroup> = {
  pending: 'waiting',
  waiting_3ds: 'waiting',
  paid: 'paid',
  refused: 'failed',
  expired: 'failed',
  canceled: 'failed',
  refunded: 'refunded',
  chargedback: 'failed',
};

/** The group of a status; undefined for a status this version does not know (a newer server's). */
export function statusGroup(status: string): StatusGroup | undefined {
  return Object.hasOwn(GROUPS, status) ? GROUPS[status as Status] : undefined;
}

export function isWaiting(status: string): boolean {
  return statusGroup(status) === 'waiting';
}

/**
 * The sandbox controls of `pinvoice serve` (the API's sandbox operations, the CLI's `sandbox` verbs):
 * each moves a charge to one status now, as the outside world would, within the status machine.
 */
export const SANDBOX_ACTIONS = {
  pay: { status: 'paid', verb: 'pays', note: 'paid (sandbox)' },
  expire: { status: 'expired', verb: 'expires', note: 'expired (sandbox)' },
  cancel: { status: 'canceled', verb: 'cancels', note: 'canceled (sandbox)' },
  chargeback: { status: 'chargedback', verb: 'charges back', note: 'charged back by the payer (sandbox)' },
} as const satisfies Record<string, { status: Status; verb: string; note: string }>;

export type SandboxAction = keyof typeof SANDBOX_ACTIONS;

/** The actions in their order (that of the OpenAPI document and of `pinvoice sandbox --help`). */
export const SANDBOX_ACTION_NAMES = Object.keys(SANDBOX_ACTIONS) as SandboxAction[];

export class InvalidTransitionError extends Error {
  constructor(
    readonly from: Status,
    readonly to: Status,
  ) {
    super(`a charge that is ${from} cannot become ${to}`);
  }
}

export function assertTransition(from: Status, to: Status): void {
  if (!canTransition(from, to)) throw new InvalidTransitionError(from, to);
}
