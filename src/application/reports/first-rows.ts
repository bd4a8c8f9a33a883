import type { SortOrder } from '../ports/report-reader';

/**
 * The first `limit` of the items offered, in the order `precedes` says, kept in a heap whose root is
 * the last of them: each item costs log(limit), so ranking tens of thousands of keys never sorts them all.
 */
export class FirstRows<T> {
  private readonly heap: T[] = [];

  constructor(
    private readonly limit: number,
    private readonly precedes: (a: T, b: T) => boolean,
  ) {}

  offer(item: T): void {
    const { heap } = this;
    if (heap.length < this.limit) {
      heap.push(item);
      this.up(heap.length - 1);
    } else if (this.limit > 0 && this.precedes(item, heap[0])) {
      heap[0] = item;
      this.down(0);
    }
  }

  inOrder(): T[] {
    return [...this.heap].sort((a, b) => (this.precedes(a, b) ? -1 : this.precedes(b, a) ? 1 : 0));
  }

  /** The root is the item that comes last: a parent never comes before its children. */
  private up(at: number): void {
    const { heap } = this;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.precedes(heap[parent], heap[at])) return;
      [heap[parent], heap[at]] = [heap[at], heap[parent]];
      at = parent;
    }
  }

  private down(at: number): void {
    const { heap } = this;
    for (;;) {
      let last = at;
      for (const child of [2 * at + 1, 2 * at + 2]) if (child < heap.length && this.precedes(heap[last], heap[child])) last = child;
      if (last === at) return;
      [heap[last], heap[at]] = [heap[at], heap[last]];
      at = last;
    }
  }
}

/**
 * Whether `a` comes before `b` on a metric in `order`; a null after every number either way, since a
 * figure that is not defined (no spend, no ROAS) is neither high nor low. Undefined when equal.
 */
export const metricBefore = (a: number | null, b: number | null, order: SortOrder = 'descending'): boolean | undefined => {
  if (a === b) return undefined;
  if (a === null) return false;
  if (b === null) return true;
  return order === 'descending' ? a > b : a < b;
};
