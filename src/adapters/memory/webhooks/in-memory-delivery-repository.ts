import * as O from 'fp-ts/Option';
import type {
  ClaimedDelivery,
  DeliveryLease,
  DeliveryPage,
  DeliveryQuery,
  DeliveryRepository,
  DueClaim,
} from '../../../application/ports/delivery-repository';
import { DELIVERY_RETENTION_MS, type Delivery } from '../../../domain/delivery';
import { randomBase62 } from '../../system/base62';
import { pageOf } from '../page-of';
import { newestFirst } from '../newest-first';

/** A delivery and who holds it: a lease ends at `leaseUntil` (0: nobody holds it). */
interface Entry {
  readonly delivery: Delivery;
  readonly leaseUntil: number;
  readonly leaseId?: string;
}

const pairOf = (delivery: Pick<Delivery, 'eventId' | 'endpointId'>): string => `${delivery.eventId}\u0000${delivery.endpointId}`;

/**
 * Deliveries in the process. Each method decides and writes with no `await` in between, which makes
 * it atomic on the event loop; deliveries are copied in and out.
 */
export class InMemoryDeliveryRepository implements DeliveryRepository {
  private readonly byId = new Map<string, Entry>();
  private readonly idByPair = new Map<string, string>();

  async insert(delivery: Delivery): Promise<boolean> {
    return this.insertNow(delivery);
  }

  /** The insert, synchronously: the in-memory outbox relays in the same turn as it writes. */
  insertNow(delivery: Delivery): boolean {
    if (this.idByPair.has(pairOf(delivery))) return false;
    if (this.byId.has(delivery.id)) throw new Error('delivery id already used');
    this.byId.set(delivery.id, { delivery: structuredClone(delivery), leaseUntil: 0 });
    this.idByPair.set(pairOf(delivery), delivery.id);
    return true;
  }

  async find(dashboardId: string, endpointId: string, deliveryId: string): Promise<O.Option<Delivery>> {
    const entry = this.entryOf(dashboardId, endpointId, deliveryId);
    return entry === undefined ? O.none : O.some(structuredClone(entry.delivery));
  }

  async list(dashboardId: string, endpointId: string, query: DeliveryQuery): Promise<DeliveryPage> {
    const matching = [...this.byId.values()]
      .map((entry) => entry.delivery)
      .filter(
        (d) => d.dashboardId === dashboardId && d.endpointId === endpointId && (query.status === undefined || d.status === query.status),
      )
      .sort(newestFirst);
    return { deliveries: pageOf(matching, query), total: matching.length };
  }

  async claimDue({ now, leaseMs, limit, skipEndpoints, skipDashboards }: DueClaim): Promise<readonly ClaimedDelivery[]> {
    const at = now.getTime();
    const due = [...this.byId.values()]
      .filter(
        ({ delivery, leaseUntil }) =>
          delivery.status === 'pending' &&
          delivery.nextAttemptAt !== undefined &&
          delivery.nextAttemptAt.getTime() <= at &&
          leaseUntil <= at &&
          !skipEndpoints.includes(delivery.endpointId) &&
          !skipDashboards.includes(delivery.dashboardId),
      )
      .sort((a, b) => a.delivery.nextAttemptAt!.getTime() - b.delivery.nextAttemptAt!.getTime())
      .slice(0, limit);
    return due.map(({ delivery }) => {
      const leaseId = randomBase62(22);
      this.byId.set(delivery.id, { delivery, leaseUntil: at + leaseMs, leaseId });
      return { delivery: structuredClone(delivery), lease: { deliveryId: delivery.id, leaseId } };
    });
  }

  async complete(lease: DeliveryLease, delivery: Delivery): Promise<boolean> {
    const entry = this.held(lease);
    if (entry === undefined) return false;
    const { nextAttemptAt: _next, ...kept } = entry.delivery;
    const next: Delivery = {
      ...kept,
      status: delivery.status,
      attempts: delivery.attempts,
      ...(delivery.nextAttemptAt === undefined ? {} : { nextAttemptAt: delivery.nextAttemptAt }),
    };
    this.byId.set(lease.deliveryId, { delivery: structuredClone(next), leaseUntil: 0 });
    return true;
  }

  async renew(lease: DeliveryLease, until: Date): Promise<boolean> {
    const entry = this.held(lease);
    if (entry === undefined) return false;
    this.byId.set(lease.deliveryId, { ...entry, leaseUntil: until.getTime() });
    return true;
  }

  async release(lease: DeliveryLease): Promise<void> {
    const entry = this.held(lease);
    if (entry !== undefined) this.byId.set(lease.deliveryId, { delivery: entry.delivery, leaseUntil: 0 });
  }

  async discard(lease: DeliveryLease): Promise<void> {
    const entry = this.held(lease);
    if (entry !== undefined) this.remove(entry.delivery);
  }

  async retryNow(dashboardId: string, endpointId: string, deliveryId: string, now: Date): Promise<O.Option<Delivery>> {
    const entry = this.entryOf(dashboardId, endpointId, deliveryId);
    if (entry === undefined) return O.none;
    const { delivery } = entry;
    const due: Delivery =
      delivery.status === 'pending'
        ? { ...delivery, nextAttemptAt: new Date(now) }
        : { ...delivery, status: 'pending', nextAttemptAt: new Date(now), automaticRetries: false };
    this.byId.set(deliveryId, { ...entry, delivery: structuredClone(due) });
    return O.some(structuredClone(due));
  }

  async deleteOfEndpoint(dashboardId: string, endpointId: string): Promise<void> {
    for (const { delivery } of [...this.byId.values()]) {
      if (delivery.dashboardId === dashboardId && delivery.endpointId === endpointId) this.remove(delivery);
    }
  }

  async purgeExpired(now: Date): Promise<number> {
    const cutoff = now.getTime() - DELIVERY_RETENTION_MS;
    let purged = 0;
    for (const { delivery } of [...this.byId.values()]) {
      if (delivery.createdAt.getTime() <= cutoff) {
        this.remove(delivery);
        purged += 1;
      }
    }
    return purged;
  }

  private entryOf(dashboardId: string, endpointId: string, deliveryId: string): Entry | undefined {
    const entry = this.byId.get(deliveryId);
    return entry !== undefined && entry.delivery.dashboardId === dashboardId && entry.delivery.endpointId === endpointId
      ? entry
      : undefined;
  }

  private held(lease: DeliveryLease): Entry | undefined {
    const entry = this.byId.get(lease.deliveryId);
    return entry !== undefined && entry.leaseId === lease.leaseId ? entry : undefined;
  }

  private remove(delivery: Delivery): void {
    this.byId.delete(delivery.id);
    this.idByPair.delete(pairOf(delivery));
  }
}
