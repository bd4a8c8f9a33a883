import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import { orderNotFound, type InvalidTransition, type OrderNotFound } from '../domain/errors';
import { changeOrder, type Order, type OrderChanges } from '../domain/order';
import { TRANSITION_POLICY, type TransitionPolicy } from '../domain/transition-policy';
import { CLOCK, type Clock } from './ports/clock';
import { ORDER_REPOSITORY, type OrderRepository } from './ports/order-repository';

/**
 * How many times a change is re-read and re-applied when other writers keep winning the race. Each
 * round means another request changed the order meanwhile, so reaching the bound takes a storm of
 * writes to one order.
 */
const MAX_ATTEMPTS = 25;

export class ConcurrentUpdateError extends Error {
  override readonly name = 'ConcurrentUpdateError';
}

@injectable()
export class UpdateOrder {
  constructor(
    @inject(ORDER_REPOSITORY) private readonly orders: OrderRepository,
    @inject(TRANSITION_POLICY) private readonly policy: TransitionPolicy,
    @inject(CLOCK) private readonly clock: Clock,
  ) {}

  /**
   * Applies the changes with optimistic concurrency: read, decide with the policy, write if the
   * version is unchanged, else read again. No write is lost, and every decision is taken on the
   * status actually stored.
   */
  async execute(
    dashboardId: string,
    externalId: string,
    changes: OrderChanges,
  ): Promise<E.Either<OrderNotFound | InvalidTransition, Order>> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.orders.findByExternalId(dashboardId, externalId);
      if (O.isNone(current)) return E.left(orderNotFound(externalId));
      const changed = changeOrder(current.value, changes, this.policy, this.clock.now());
      if (E.isLeft(changed)) return changed;
      const { order, events } = changed.right;
      // A change that changes nothing emits nothing and is not written.
      if (events.length === 0) return E.right(order);
      if (await this.orders.replace(order)) return E.right(order);
    }
    throw new ConcurrentUpdateError(`order kept changing during ${MAX_ATTEMPTS} attempts`);
  }
}
