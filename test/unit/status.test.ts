import { describe, it, expect } from 'vitest';
import {
  assertTransition, canTransition, initialStatuses, InvalidTransitionError, isFinal, isWaiting, METHODS, SANDBOX_ACTION_NAMES, SANDBOX_ACTIONS,
  STATUSES, statusGroup, type Method, type Status,
} from '../../src/domain/status.js';

// The contract's table, written out independently of the implementation. `null` is the creation of the charge.
const ALLOWED: ReadonlyMap<Status | null, readonly Status[]> = new Map<Status | null, readonly Status[]>([
  [null, ['pending', 'waiting_3ds', 'paid', 'refused']],
  ['pending', ['paid', 'expired', 'canceled']],
  ['waiting_3ds', ['paid', 'refused', 'canceled']],
  ['paid', ['refunded', 'chargedback']],
  ['refused', []],
  ['expired', []],
  ['canceled', []],
  ['refunded', []],
  ['chargedback', []],
]);

const ALL_STATUSES: readonly Status[] = [
  'pending', 'waiting_3ds', 'paid', 'refused', 'expired', 'canceled', 'refunded', 'chargedback',
];

const isAllowed = (from: Status | null, to: Status): boolean => (ALLOWED.get(from) ?? []).includes(to);

const allowedPairs: [Status | null, Status][] = [];
const refusedPairs: [Status | null, Status][] = [];
for (const from of [null, ...ALL_STATUSES]) {
  for (const to of ALL_STATUSES) (isAllowed(from, to) ? allowedPairs : refusedPairs).push([from, to]);
}

describe('the status list', () => {
  it('has exactly the eight statuses of the contract', () => expect([...STATUSES].sort()).toEqual([...ALL_STATUSES].sort()));
  it('has exactly the three methods', () => expect([...METHODS]).toEqual(['pix', 'credit_card', 'boleto']));
  it('the table covers 12 allowed and 60 refused pairs', () => {
    expect(allowedPairs).toHaveLength(12);
    expect(refusedPairs).toHaveLength(60);
  });
});

describe('allowed transitions', () => {
  it.each(allowedPairs)('%s -> %s is allowed', (from, to) => {
    expect(canTransition(from, to)).toBe(true);
    if (from !== null) expect(() => assertTransition(from, to)).not.toThrow();
  });
});

describe('refused transitions', () => {
  it.each(refusedPairs)('%s -> %s is refused', (from, to) => {
    expect(canTransition(from, to)).toBe(false);
  });

  it.each(refusedPairs.filter((pair): pair is [Status, Status] => pair[0] !== null))(
    'assertTransition(%s, %s) throws InvalidTransitionError with from and to',
    (from, to) => {
      let caught: unknown;
      try {
        assertTransition(from, to);
      } catch (error) {
        caught = error;
      }
      expect(caught).toBeInstanceOf(InvalidTransitionError);
      expect(caught).toBeInstanceOf(Error);
      const error = caught as InvalidTransitionError;
      expect(error.from).toBe(from);
      expect(error.to).toBe(to);
      expect(error.message).toBe(`a charge that is ${from} cannot become ${to}`);
    },
  );

  it.each(ALL_STATUSES)('%s -> %s (itself) is refused', (status) => {
    expect(canTransition(status, status)).toBe(false);
    expect(() => assertTransition(status, status)).toThrow(InvalidTransitionError);
  });
});

describe('isFinal', () => {
  it.each([
    ['pending', false],
    ['waiting_3ds', false],
    ['paid', false],
    ['refused', true],
    ['expired', true],
    ['canceled', true],
    ['refunded', true],
    ['chargedback', true],
  ] as const)('isFinal(%s) is %s', (status, expected) => expect(isFinal(status)).toBe(expected));

  it.each(ALL_STATUSES)('%s is final exactly when no transition leaves it', (status) => {
    expect(isFinal(status)).toBe(ALL_STATUSES.every((to) => !canTransition(status, to)));
  });
});

describe('initialStatuses', () => {
  it.each([
    ['pix', ['pending']],
    ['boleto', ['pending']],
    ['credit_card', ['paid', 'refused', 'waiting_3ds']],
  ] as const)('initialStatuses(%s) is %j', (method, expected) => {
    expect([...initialStatuses(method)].sort()).toEqual([...expected].sort());
  });

  it.each([...METHODS])('every initial status of %s is allowed at creation', (method: Method) => {
    for (const status of initialStatuses(method)) expect(canTransition(null, status)).toBe(true);
  });

  it('together the methods start in every status allowed at creation', () => {
    const union = new Set(METHODS.flatMap((method) => [...initialStatuses(method)]));
    expect([...union].sort()).toEqual([...(ALLOWED.get(null) ?? [])].sort());
  });
});

describe('statusGroup and isWaiting', () => {
  it.each([
    ['pending', 'waiting'],
    ['waiting_3ds', 'waiting'],
    ['paid', 'paid'],
    ['refused', 'failed'],
    ['expired', 'failed'],
    ['canceled', 'failed'],
    ['chargedback', 'failed'],
    ['refunded', 'refunded'],
  ] as const)('statusGroup(%s) is %s', (status, group) => expect(statusGroup(status)).toBe(group));

  it('knows no group for a status this version does not know, nor for an inherited key', () => {
    expect(statusGroup('on_hold')).toBeUndefined();
    expect(statusGroup('constructor')).toBeUndefined();
    expect(isWaiting('on_hold')).toBe(false);
  });

  it.each(ALL_STATUSES)('%s waits exactly when it is not final and can still become paid', (status) => {
    expect(isWaiting(status)).toBe(!isFinal(status) && canTransition(status, 'paid'));
  });

  it.each(ALL_STATUSES)('%s is failed or refunded exactly when it is final', (status) => {
    expect(['failed', 'refunded'].includes(statusGroup(status) ?? '')).toBe(isFinal(status));
  });
});

describe('SANDBOX_ACTIONS', () => {
  it('lists pay, expire, cancel and chargeback, in that order', () => {
    expect(SANDBOX_ACTION_NAMES).toEqual(['pay', 'expire', 'cancel', 'chargeback']);
  });

  it.each(SANDBOX_ACTION_NAMES)('%s moves a charge to a status the machine lets some status reach', (action) => {
    const { status } = SANDBOX_ACTIONS[action];
    expect(ALL_STATUSES.some((from) => canTransition(from, status))).toBe(true);
  });
});
