import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import { setTimeout } from 'node:timers/promises';
import { inject, injectable } from 'tsyringe';
import { orderNotFound, type InvalidTransition, type OrderNotFound } from '../../domain/errors';
import { changeOrder, type Order, type OrderChanges } from '../../domain/order';
import { TRANSITION_POLICY, type TransitionPolicy } from '../../domain/transition-policy';
import { CLOCK, type Clock } from '../ports/clock';
import { ID_GENERATOR, type IdGenerator } from '../ports/id-generator';
import { ORDER_REPOSITORY, type OrderRepository } from '../ports/order-repository';
import { WEBHOOK_NUDGE, type WebhookNudge } from '../ports/webhook-nudge';

/**
 * How many times a change is re-read and re-applied when other writers keep winning the race. An
 * attempt is lost only when another write of the order succeeded between its read and its write,
 * and the attempts of one request do not overlap, so each lost attempt is another request's
 * success: of N requests writing one order at once, none loses more than N - 1 times. With this
 * bound, up to 50 concurrent writes of one order all succeed; giving up takes 50 other writes of
 * that order landing while one request runs.
 */
const MAX_ATTEMPTS = 50;

/**
 * After a lost attempt, a pause drawn uniformly from [0, min(cap, base * 2^attempt)) ms ("full
 * jitter"): the losers of one round spread out instead of all colliding again on the next. It does
 * not change the bound above, only how many attempts are wasted: measured on 50 concurrent PATCHes
 * of one order, about 6 attempts per request instead of about 19 (docs/mongodb-notes.md).
 */
const BACKOFF_BASE_MS = 2;
const BACKOFF_CAP_MS = 100;

const pauseAfterLoss = (attempt: number): Promise<void> =>
  setTimeout(Math.random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** attempt));

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
    @inject(WEBHOOK_NUDGE) private readonly nudge: WebhookNudge,
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
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const current = await this.orders.findByExternalId(dashboardId, externalId);
      if (O.isNone(current)) return E.left(orderNotFound(externalId));
      const changed = changeOrder(current.value, changes, this.policy, this.clock.now());
      if (E.isLeft(changed)) return changed;
      const { order, events } = changed.right;
      if (events.length === 0) return E.right(order);
      const identified = events.map((event) => ({ id: this.ids.next('evt'), ...event }));
      if (await this.orders.replace(order, identified)) {
        this.nudge.outboxChanged();
        return E.right(order);
      }
      if (attempt + 1 < MAX_ATTEMPTS) await pauseAfterLoss(attempt);
    }
    throw new ConcurrentUpdateError(`order kept changing during ${MAX_ATTEMPTS} attempts`);
  }
}
