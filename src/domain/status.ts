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
