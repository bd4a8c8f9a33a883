import type { OrderStatus } from './order-status';

/**
 * Decides whether an order may move from one status to another. The specification states no
 * transitions and forbids inferring them, so the domain holds no rules: an operator supplies them
 * (decision 0006). Setting the status an order already has is not a transition and never reaches the
 * policy.
 */
export interface TransitionPolicy {
  /** True when `from` → `to` is allowed. Pure and synchronous; `from` and `to` always differ. */
  allows(from: OrderStatus, to: OrderStatus): boolean;
}
