/**
 * A bounded map whose entries lapse `ttlMs` after they were set: at most `max` entries, the oldest
 * set going first. What the keystore holds in memory (unsealed signing keys, whose a key is) is
 * held only this long.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { readonly value: V; readonly until: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly max: number,
    private readonly now: () => Date,
  ) {}

  /** The value set for `key`, unless it lapsed. */
  get(key: string): V | undefined {
    const hit = this.entries.get(key);
    return hit && hit.until > this.now().getTime() ? hit.value : undefined;
  }

  set(key: string, value: V): void {
    this.entries.delete(key);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { value, until: this.now().getTime() + this.ttlMs });
  }

  /** Forgets `key` if it still holds `value` (a later `set` is kept). */
  deleteIf(key: string, value: V): void {
    if (this.entries.get(key)?.value === value) this.entries.delete(key);
  }
}
