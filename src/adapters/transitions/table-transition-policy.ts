import type { OrderStatus } from '../../domain/order-status';
import type { TransitionPolicy } from '../../domain/transition-policy';

/** For each status, the statuses it may move to. A status that is absent may move nowhere. */
export type TransitionTable = Readonly<Partial<Record<OrderStatus, readonly OrderStatus[]>>>;

/**
 * The transitions an operator wrote down (ORDER_TRANSITIONS_FILE). The empty table, the default,
 * refuses every change of status: the service ships no rules of its own (decision 0006).
 */
export class TableTransitionPolicy implements TransitionPolicy {
  private readonly allowed: ReadonlySet<string>;

  constructor(table: TransitionTable = {}) {
    this.allowed = new Set(Object.entries(table).flatMap(([from, tos]) => (tos ?? []).map((to) => `${from}>${to}`)));
  }

  allows(from: OrderStatus, to: OrderStatus): boolean {
    return this.allowed.has(`${from}>${to}`);
  }
}
