// What a commit changed, as tags the caches kept in memory drop their entries by (src/server/cache):
// `i<id>` a charge, `u<id>` a customer (every record of its charges shows when it last changed),
// `c<id>` a company's profile, clock, chaos or tokens (its tokens' access and every record of it),
// `m<id>` a company's balances and paid totals (every record of it shows them). The writing
// repositories are wrapped so that every call that changes one of those names it: the port's write
// calls are listed here one by one, so a new one is not missed silently (the type says which exist).
// Another process hears them as a short text (PostgreSQL's NOTIFY payload): encode and decode.
import type { Writes } from './port.js';

/** the tags of one commit, or every kept thing (what changed cannot be told: another SQLite process, a lost LISTEN) */
export type Changed = ReadonlySet<string> | 'all';

/** the tag of a charge, a customer, a company's profile and tokens, a company's money */
export const tagOf = {
  invoice: (id: number) => `i${id}`,
  customer: (id: number) => `u${id}`,
  company: (id: number) => `c${id}`,
  money: (companyId: number) => `m${companyId}`,
};

/** What a commit's writes changed, gathered while its transaction runs. */
export interface ChangeSet {
  add(tag: string): void;
  /** everything may have changed (clearCharges) */
  addAll(): void;
}

/** Wraps writing repositories: each call that changes what a cache keeps adds its tags to `changes`. */
export function watchChanges(writes: Writes, changes: ChangeSet): Writes {
  const { invoices, companies } = writes;
  return {
    ...writes,
    clearCharges: async () => {
      changes.addAll();
      return writes.clearCharges();
    },
    companies: {
      ...companies,
      revokeToken: async (companyId, ...rest) => {
        changes.add(tagOf.company(companyId));
        return companies.revokeToken(companyId, ...rest);
      },
      setClock: async (companyId, offsetMs) => {
        changes.add(tagOf.company(companyId));
        return companies.setClock(companyId, offsetMs);
      },
      setChaos: async (companyId, chaos) => {
        changes.add(tagOf.company(companyId));
        return companies.setChaos(companyId, chaos);
      },
      setSigningToken: async (companyId, signing) => {
        changes.add(tagOf.company(companyId));
        return companies.setSigningToken(companyId, signing);
      },
    },
    invoices: {
      ...invoices,
      insert: async (invoice) => {
        changes.add(tagOf.invoice(invoice.id));
        return invoices.insert(invoice);
      },
      upsertCustomer: async (companyId, document, now) => {
        const customer = await invoices.upsertCustomer(companyId, document, now);
        changes.add(tagOf.customer(customer.id));
        return customer;
      },
      changeStatus: async (change) => {
        changes.add(tagOf.invoice(change.id));
        return invoices.changeStatus(change);
      },
      addTimeline: async (invoiceId, ...rest) => {
        changes.add(tagOf.invoice(invoiceId));
        return invoices.addTimeline(invoiceId, ...rest);
      },
      addRefund: async (invoiceId, ...rest) => {
        changes.add(tagOf.invoice(invoiceId));
        return invoices.addRefund(invoiceId, ...rest);
      },
      addMovement: async (movement) => {
        changes.add(tagOf.invoice(movement.invoice_id));
        changes.add(tagOf.money(movement.company_id));
        return invoices.addMovement(movement);
      },
      countPaid: async (companyId, ...rest) => {
        changes.add(tagOf.money(companyId));
        return invoices.countPaid(companyId, ...rest);
      },
    },
  };
}

/** The tags of one transaction: gathered, then taken at its commit (and forgotten at its rollback). */
export function gatherChanges(): ChangeSet & { take(): Changed | undefined } {
  let tags = new Set<string>();
  let all = false;
  return {
    add: (tag) => void tags.add(tag),
    addAll: () => void (all = true),
    take() {
      const taken: Changed | undefined = all ? 'all' : tags.size > 0 ? tags : undefined;
      tags = new Set();
      all = false;
      return taken;
    },
  };
}

/** NOTIFY's payload is at most 8,000 bytes: a longer list is sent as "everything". */
const MAX_PAYLOAD = 7900;

/** The text another process hears: the tags joined by commas, or `*`. */
export function encodeChanged(changed: Changed): string {
  if (changed === 'all') return '*';
  const text = [...changed].join(',');
  return text.length > MAX_PAYLOAD ? '*' : text;
}

/** What another process's text says; anything that is not a list of tags is taken as everything. */
export function decodeChanged(text: string): Changed {
  if (text === '*' || !/^[a-z]\d+(,[a-z]\d+)*$/.test(text)) return 'all';
  return new Set(text.split(','));
}

/** The listeners of a store's change feed, and the call that tells them. */
export function changeListeners() {
  const listeners = new Set<(changed: Changed) => void>();
  return {
    add(listener: (changed: Changed) => void): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    tell(changed: Changed): void {
      for (const listener of listeners) listener(changed);
    },
    get size(): number {
      return listeners.size;
    },
  };
}
