/** A bounded buffer that keeps the last `capacity` items pushed, oldest dropped first. */
export class RingBuffer<T> {
  private readonly items: (T | undefined)[];
  /** Where the next push goes. */
  private next = 0;
  private count = 0;

  /** @param capacity how many items it keeps (a positive integer; checked by the caller). */
  constructor(readonly capacity: number) {
    this.items = new Array<T | undefined>(capacity);
  }

  /** Adds `item`, dropping the oldest once full. */
  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** How many items it holds. */
  get size(): number {
    return this.count;
  }

  /** The items, oldest first (a new array). */
  toArray(): T[] {
    const out: T[] = [];
    const start = this.count < this.capacity ? 0 : this.next;
    for (let i = 0; i < this.count; i++) out.push(this.items[(start + i) % this.capacity] as T);
    return out;
  }
}
