/**
 * A memo of at most `max` entries, first in first out: when it is full, the oldest entry makes
 * room for the new one. For values that are dear to compute and asked for again soon (the base58
 * names of keys, transaction ids found well-formed), where a bound matters more than recency.
 */
export class Recent<K, V> {
  private readonly entries = new Map<K, V>();

  constructor(private readonly max: number) {}

  get(key: K): V | undefined {
    return this.entries.get(key);
  }

  has(key: K): boolean {
    return this.entries.has(key);
  }

  remember(key: K, value: V): void {
    if (this.entries.size >= this.max && !this.entries.has(key)) {
      this.entries.delete(this.entries.keys().next().value as K);
    }
    this.entries.set(key, value);
  }
}
