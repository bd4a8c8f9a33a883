import type { IdGenerator } from '../../src/application/ports/id-generator';

type Prefix = Parameters<IdGenerator['next']>[0];

/**
 * Predictable ids for use-case tests: `ord_000001`, `ord_000002`, … one counter per prefix. The
 * service's own ids are random (decision 0004); tests want to know which id comes next.
 */
export class SequenceIds implements IdGenerator {
  private readonly counters = new Map<Prefix, number>();

  next(prefix: Prefix): string {
    const n = (this.counters.get(prefix) ?? 0) + 1;
    this.counters.set(prefix, n);
    return `${prefix}_${String(n).padStart(6, '0')}`;
  }
}
