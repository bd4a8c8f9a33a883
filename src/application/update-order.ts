import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { inject, injectable } from 'tsyringe';
import { orderNotFound, type InvalidTransition, type OrderNotFound } from '../domain/errors';
import { changeOrder, type Order, type OrderChanges } from '../domain/order';
import { TRANSITION_POLICY, type TransitionPolicy } from '../domain/transition-policy';
import { CLOCK, type Clock } from './ports/clock';
import { ID_GENERATOR, type IdGenerator } from './ports/id-generator';
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
    @inject(ID_GENERATOR) private readonly ids: IdGenerator,
  ) {}

  /**
   * Applies the changes with optimistic concurrency: read, decide with the policy, write if the
   * version is unchanged, else read again. No write is lost, and every decision is taken on the
   * status actually stored. The events go in the same write, so those stored are the events of the
   * application that won, computed on the version it replaced. A change that changes nothing is not
   * written and emits nothing.
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
      if (events.length === 0) return E.right(order);
      const identified = events.map((event) => ({ id: this.ids.next('evt'), ...event }));
      if (await this.orders.replace(order, identified)) return E.right(order);
    }
    throw new ConcurrentUpdateError(`order kept changing during ${MAX_ATTEMPTS} attempts`);
  }
}
