// The values last used, by a text, at most `size` of them: when one more comes, the oldest not used
// since it was last passed over goes (a second chance, as a clock: a hit only marks its entry, so the
// map itself changes only when something is added, not at every hit of the few hundred a proxy checks).
// A hit keeps the key the value was stored under: the text looked up is most often a new string of the
// same characters (an answer decoded anew for each request), and a map re-keyed with it at every hit
// keeps each such string alive until its next hit, long enough for the garbage collector to copy it,
// then promote it (bench/proxy.ts at 500 req/s: 1.1 MB surviving each scavenge, pauses of 2.5 ms; 0.3 MB
// and 1.4 ms with the first key kept).

interface Kept<V> {
  value: V;
  used: boolean;
}

export class TextLru<V> {
  readonly #kept = new Map<string, Kept<V>>();

  constructor(readonly size: number) {}

  get(key: string): V | undefined {
    const kept = this.#kept.get(key);
    if (kept === undefined) return undefined;
    kept.used = true;
    return kept.value;
  }

  set(key: string, value: V): void {
    const kept = this.#kept.get(key);
    if (kept !== undefined) {
      kept.value = value;
      kept.used = true;
      return;
    }
    if (this.#kept.size >= this.size) this.#evict();
    this.#kept.set(key, { value, used: false });
  }

  /** Drops the oldest entry not used since it was last passed over; each used one passed over goes to the end, unmarked. */
  #evict(): void {
    for (const [key, kept] of this.#kept) {
      this.#kept.delete(key);
      if (!kept.used) return;
      kept.used = false;
      this.#kept.set(key, kept);
    }
  }
}
