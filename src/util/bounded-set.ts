/** A set that remembers at most `max` values, forgetting the oldest first (for dedupe without growing for ever). */
export class BoundedSet<T> {
  private readonly values = new Set<T>();
  private readonly max: number;

  constructor(params: { max: number }) {
    this.max = Math.max(1, params.max);
  }

  /** Whether `value` was added and not yet forgotten. */
  has(value: T): boolean {
    return this.values.has(value);
  }

  /** Adds `value`; returns false when it was already there. */
  add(value: T): boolean {
    if (this.values.has(value)) return false;
    this.values.add(value);
    if (this.values.size > this.max) {
      const oldest = this.values.values().next();
      if (!oldest.done) this.values.delete(oldest.value);
    }
    return true;
  }

  /** Forgets `value` (e.g. when handling it failed and it must be taken again). */
  delete(value: T): void {
    this.values.delete(value);
  }

  /** How many values are remembered. */
  get size(): number {
    return this.values.size;
  }
}
