// What the server keeps in memory of what it read (a charge's record as sent, a token's access), each
// under the tags of what it was read from (store/changes.ts), dropped when a commit changes one of
// them: this process's commit at once, another process's when the store hears of it. Nothing is kept
// while the store cannot hear other processes (a lost LISTEN). A read that overlapped a change of
// what it read is not kept: each read takes a mark first, and the changes since are looked through.
import type { Changed } from '../store/changes.js';
import type { ChangeFeed } from '../store/port.js';

/** how many recent changes a read's mark can be checked against (a read that saw more is not kept) */
const RECENT = 64;

interface Entry<V> {
  value: V;
  tags: readonly string[];
}

export type Kept<V> = ReturnType<typeof createKept<V>>;

/** At most `max` values, the oldest dropped first. */
export function createKept<V>(feed: ChangeFeed, max: number) {
  const entries = new Map<string, Entry<V>>();
  const byTag = new Map<string, Set<string>>();
  let epoch = 0;
  const recent: { epoch: number; changed: Changed }[] = [];

  const untag = (key: string, tags: readonly string[]) => {
    for (const tag of tags) {
      const keys = byTag.get(tag);
      if (keys?.delete(key) && keys.size === 0) byTag.delete(tag);
    }
  };
  const drop = (changed: Changed) => {
    epoch++;
    recent.push({ epoch, changed });
    if (recent.length > RECENT) recent.shift();
    if (changed === 'all') {
      entries.clear();
      byTag.clear();
      return;
    }
    for (const tag of changed) {
      const keys = byTag.get(tag);
      if (!keys) continue;
      byTag.delete(tag);
      for (const key of keys) {
        const entry = entries.get(key);
        if (!entry) continue;
        entries.delete(key);
        untag(key, entry.tags);
      }
    }
  };
  /** whether a change since `mark` touched one of `tags` (or could have: too many to tell) */
  const touchedSince = (mark: number, tags: readonly string[]): boolean => {
    if (mark === epoch) return false;
    if ((recent[0]?.epoch ?? Infinity) > mark + 1) return true;
    return recent.some((change) => change.epoch > mark && (change.changed === 'all' || tags.some((tag) => (change.changed as ReadonlySet<string>).has(tag))));
  };
  const stop = feed.onChanged(drop);

  return {
    /** the value kept under key, if any (and if the store hears other processes now) */
    get(key: string): V | undefined {
      return feed.heard() ? entries.get(key)?.value : undefined;
    },
    /** the value kept under key even while the store does not hear (it may be stale: to name, never to grant) */
    peek: (key: string): V | undefined => entries.get(key)?.value,
    /** a mark to take before a read whose result may be kept */
    mark: (): number => epoch,
    /** keeps what a read that began at `mark` gave, unless one of its tags changed meanwhile */
    keep(key: string, value: V, tags: readonly string[], mark: number): void {
      if (!feed.heard() || touchedSince(mark, tags)) return;
      const before = entries.get(key);
      if (before) {
        entries.delete(key);
        untag(key, before.tags);
      } else if (entries.size >= max) {
        const [oldest, entry] = entries.entries().next().value as [string, Entry<V>];
        entries.delete(oldest);
        untag(oldest, entry.tags);
      }
      entries.set(key, { value, tags });
      for (const tag of tags) {
        const keys = byTag.get(tag);
        if (keys) keys.add(key);
        else byTag.set(tag, new Set([key]));
      }
    },
    /** forgets one key (a value found stale by its own rule) */
    forget(key: string): void {
      const entry = entries.get(key);
      if (!entry) return;
      entries.delete(key);
      untag(key, entry.tags);
    },
    get size(): number {
      return entries.size;
    },
    close: stop,
  };
}
