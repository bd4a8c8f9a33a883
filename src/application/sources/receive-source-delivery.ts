import * as E from 'fp-ts/Either';
import * as O from 'fp-ts/Option';
import type { Order } from '../../domain/order';
import { MAX_SOURCE_DELIVERIES, SOURCE_PLATFORMS, type Source, type SourceDelivery } from '../../domain/source';
import { decideDelivery, type OrderReading, type SourceReading } from '../../domain/source-reading';
import type { CreateOrder } from '../orders/create-order';
import type { UpdateOrder } from '../orders/update-order';
import type { Clock } from '../ports/clock';
import type { IdGenerator } from '../ports/id-generator';
import type { OrderRepository } from '../ports/order-repository';
import type { SourceDeliveryLog } from '../ports/source-delivery-log';
import type { SourcePlatforms, SourceRequest } from '../ports/source-platform';
import type { SourceRepository } from '../ports/source-repository';
import { unknownSource, type SourceSignatureInvalid, type UnknownSource } from '../shared/errors';

/** What an unknown source's delivery is checked against, so that a 404 costs what a 401 does. */
const DUMMY_SECRET = 'whsec_dGhpcyBzb3VyY2UgZG9lcyBub3QgZXhpc3QgYXQgYWxs';

/**
 * A create that loses to a racing delivery of the same order reads it again and updates; a round more
 * covers an order that a racing create made between this one's read and write.
 */
const MAX_ROUNDS = 3;

type Outcome = Pick<SourceDelivery, 'outcome' | 'reason' | 'externalId'>;

const DATE = (at: Date): string => at.toISOString();

export class ReceiveSourceDelivery {
  constructor(
    private readonly sources: SourceRepository,
    private readonly log: SourceDeliveryLog,
    private readonly platforms: SourcePlatforms,
    private readonly orders: OrderRepository,
    private readonly createOrder: CreateOrder,
    private readonly updateOrder: UpdateOrder,
    private readonly ids: IdGenerator,
    private readonly clock: Clock,
  ) {}

  /** The dashboard of a source, or undefined when none has this id: whose turn a large delivery waits for (decision 0023). */
  async dashboardOf(sourceId: string): Promise<string | undefined> {
    const found = await this.sources.findById(sourceId);
    return O.isNone(found) ? undefined : found.value.dashboardId;
  }

  /**
   * A platform's delivery (decision 0021): the signature first, over the raw bytes, then what the
   * delivery says, applied through the order use cases, and one line in the source's log. A delivery
   * with a bad signature is logged as refused (never its body) and answered `SourceSignatureInvalid`;
   * an unknown source costs the same signature check, against a dummy secret.
   */
  async execute(sourceId: string, request: SourceRequest): Promise<E.Either<UnknownSource | SourceSignatureInvalid, SourceDelivery>> {
    const now = this.clock.now();
    const found = await this.sources.findById(sourceId);
    if (O.isNone(found)) {
      this.platforms[SOURCE_PLATFORMS[0]].verify(request, DUMMY_SECRET, now);
      return E.left(unknownSource);
    }
    const source = found.value;
    const platform = this.platforms[source.platform];
    const check = platform.verify(request, source.secret, now);
    if (!check.valid) {
      await this.record(source, now, {}, { outcome: 'refused', reason: `bad signature: ${check.reason}` });
      return E.left({ _tag: 'SourceSignatureInvalid', reason: check.reason });
    }
    const reading = platform.read(request);
    return E.right(await this.record(source, now, reading, await this.apply(source, reading)));
  }

  private async record(
    source: Source,
    now: Date,
    labels: Pick<SourceReading, 'eventId' | 'topic'>,
    outcome: Outcome,
  ): Promise<SourceDelivery> {
    const delivery: SourceDelivery = {
      id: this.ids.next('sdl'),
      sourceId: source.id,
      dashboardId: source.dashboardId,
      receivedAt: now,
      ...(labels.eventId === undefined ? {} : { eventId: labels.eventId }),
      ...(labels.topic === undefined ? {} : { topic: labels.topic }),
      ...outcome,
    };
    await this.log.append(delivery, MAX_SOURCE_DELIVERIES);
    return delivery;
  }

  private async apply(source: Source, reading: SourceReading): Promise<Outcome> {
    if (reading.kind !== 'order') return { outcome: reading.kind, reason: reading.reason };
    const externalId = reading.externalId;
    if (reading.eventId !== undefined) {
      const applied = await this.log.findApplied(source.id, reading.eventId);
      if (O.isSome(applied))
        return {
          outcome: 'ignored',
          externalId,
          reason: `a retry of an event applied on ${DATE(applied.value.receivedAt)} (${applied.value.outcome})`,
        };
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const outcome = await this.applyOnce(source.dashboardId, reading);
      if (outcome !== 'raced') return outcome;
    }
    return { outcome: 'ignored', externalId, reason: 'the order kept changing while this event was applied' };
  }

  /**
   * The order a delivery is about: under its key, else under the key it had before shops had order
   * spaces of their own, when that order is the same (created at the same instant).
   */
  private async currentOrder(dashboardId: string, reading: OrderReading): Promise<Order | undefined> {
    const found = O.toUndefined(await this.orders.findByExternalId(dashboardId, reading.externalId));
    if (found !== undefined || reading.formerExternalId === undefined) return found;
    const former = O.toUndefined(await this.orders.findByExternalId(dashboardId, reading.formerExternalId));
    if (former === undefined) return undefined;
    return reading.order === undefined || reading.order.createdAt.getTime() === former.createdAt.getTime() ? former : undefined;
  }

  private async applyOnce(dashboardId: string, reading: OrderReading): Promise<Outcome | 'raced'> {
    const current = await this.currentOrder(dashboardId, reading);
    const externalId = current?.externalId ?? reading.externalId;
    const decision = decideDelivery(reading, current);
    switch (decision.action) {
      case 'ignore':
        return { outcome: 'ignored', externalId, reason: decision.reason };
      case 'refuse':
        return { outcome: 'refused', externalId, reason: decision.reason };
      case 'create': {
        const created = await this.createOrder.execute(dashboardId, decision.order);
        return E.isRight(created) ? { outcome: 'created', externalId, reason: createdReason(created.right, reading) } : 'raced';
      }
      case 'update': {
        const updated = await this.updateOrder.execute(dashboardId, externalId, decision.changes);
        if (E.isRight(updated)) return { outcome: 'updated', externalId, reason: decision.reason };
        if (updated.left._tag === 'OrderNotFound') return 'raced';
        const { from, to } = updated.left;
        return {
          outcome: 'refused',
          externalId,
          reason: `the transition table does not allow ${from} → ${to}: add "${to}" to the list of "${from}" in ORDER_TRANSITIONS_FILE`,
        };
      }
    }
  }
}

const createdReason = (order: Order, reading: OrderReading): string =>
  reading.note === undefined ? `recorded as ${order.status}` : `recorded as ${order.status} (${reading.note})`;
