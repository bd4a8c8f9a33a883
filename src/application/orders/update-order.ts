import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { orderNotFound, type InvalidTransition, type OrderNotFound } from '../../domain/errors';
import { changeOrder, type Order, type OrderChanges } from '../../domain/order';
import type { TransitionPolicy } from '../../domain/transition-policy';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OrderRepository } from '../ports/order-repository';
import type { WebhookNudge } from '../ports/webhook-nudge';
import { retryOnConflict } from '../shared/retry-on-conflict';

/** Up to 50 concurrent writes of one order all succeed; giving up takes 50 other writes landing while one request runs. */
const MAX_ATTEMPTS = 50;

export class UpdateOrder {
  constructor(
    private readonly orders: OrderRepository,
    private readonly policy: TransitionPolicy,
    private readonly clock: Clock,
    private readonly ids: IdGenerator,
    private readonly nudge: WebhookNudge,
  ) {}

  /**
   * Applies the changes with optimistic concurrency: read, decide with the policy, write if the
   * version is unchanged, else pause a little and read again. No write is lost, and every decision is
   * taken on the status actually stored. The events go in the same write, so those stored are the
   * events of the application that won, computed on the version it replaced. A change that changes
   * nothing is not written and emits nothing.
   */
  async execute(
    dashboardId: string,
    externalId: string,
    changes: OrderChanges,
  ): Promise<E.Either<OrderNotFound | InvalidTransition, Order>> {
    return retryOnConflict('order', MAX_ATTEMPTS, async () => {
      const current = await this.orders.findByExternalId(dashboardId, externalId);
      if (O.isNone(current)) return { done: E.left(orderNotFound(externalId)) };
      const changed = changeOrder(current.value, changes, this.policy, this.clock.now());
      if (E.isLeft(changed)) return { done: changed };
      const { order, events } = changed.right;
      if (events.length === 0) return { done: E.right(order) };
      const identified = events.map((event) => ({ id: this.ids.next('evt'), ...event }));
      if (!(await this.orders.replace(order, identified))) return 'conflict';
      this.nudge.outboxChanged();
      return { done: E.right(order) };
    });
  }
}
