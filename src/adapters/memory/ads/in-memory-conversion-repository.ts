import type {
  ClaimedConversion,
  ConversionClaim,
  ConversionLease,
  ConversionPage,
  ConversionQuery,
  ConversionRepository,
} from '../../../application/ports/conversion-repository';
import { CONVERSION_RETENTION_MS, type ConversionDelivery, type ConversionKind } from '../../../domain/conversion';
import { pageOf } from '../page-of';
import { newestFirst } from '../newest-first';

/** A delivery and who holds it: a lease ends at `leaseUntil` (0: nobody holds it). */
interface Entry {
  delivery: ConversionDelivery;
  leaseUntil: number;
  leaseId?: string;
}

const pairOf = (delivery: Pick<ConversionDelivery, 'eventId' | 'adAccountId'>): string =>
  `${delivery.eventId}\u0000${delivery.adAccountId}`;

/**
 * Conversion deliveries in the process. Each method decides and writes with no `await` in between,
 * which makes it atomic on the event loop; deliveries are copied in and out.
 */
export class InMemoryConversionRepository implements ConversionRepository {
  private readonly byId = new Map<string, Entry>();
  private readonly pairs = new Set<string>();

  /** The relay's insert, synchronously and idempotent on (event, account): the in-memory outbox relays in one turn. */
  insertNow(delivery: ConversionDelivery): boolean {
    if (this.pairs.has(pairOf(delivery))) return false;
    this.byId.set(delivery.id, { delivery: structuredClone(delivery), leaseUntil: 0 });
    this.pairs.add(pairOf(delivery));
    return true;
  }

  async list(dashboardId: string, adAccountId: string, query: ConversionQuery): Promise<ConversionPage> {
    const matching = [...this.byId.values()]
      .map((entry) => entry.delivery)
      .filter(
        (d) => d.dashboardId === dashboardId && d.adAccountId === adAccountId && (query.status === undefined || d.status === query.status),
      )
      .sort(newestFirst);
    return { conversions: pageOf(matching, query), total: matching.length };
  }

  async findOfOrder(adAccountId: string, orderId: string, kind: ConversionKind): Promise<ConversionDelivery | undefined> {
    const found = [...this.byId.values()]
      .map((entry) => entry.delivery)
      .filter((d) => d.adAccountId === adAccountId && d.conversion.orderId === orderId && d.conversion.kind === kind)
      .sort(newestFirst)[0];
    return found === undefined ? undefined : structuredClone(found);
  }

  async claimDue({ now, leaseMs, leaseId, skipDashboards }: ConversionClaim): Promise<ClaimedConversion | undefined> {
    const at = now.getTime();
    const due = [...this.byId.values()]
      .filter(
        ({ delivery, leaseUntil }) =>
          delivery.status === 'pending' &&
          delivery.nextAttemptAt !== undefined &&
          delivery.nextAttemptAt.getTime() <= at &&
          leaseUntil <= at &&
          !skipDashboards.includes(delivery.dashboardId),
      )
      .sort((a, b) => a.delivery.nextAttemptAt!.getTime() - b.delivery.nextAttemptAt!.getTime())[0];
    if (due === undefined) return undefined;
    due.leaseUntil = at + leaseMs;
    due.leaseId = leaseId;
    return { delivery: structuredClone(due.delivery), lease: { deliveryId: due.delivery.id, leaseId } };
  }

  async complete(lease: ConversionLease, delivery: ConversionDelivery): Promise<boolean> {
    const entry = this.held(lease);
    if (entry === undefined) return false;
    this.byId.set(delivery.id, { delivery: structuredClone(delivery), leaseUntil: 0 });
    return true;
  }

  async renew(lease: ConversionLease, until: Date): Promise<boolean> {
    const entry = this.held(lease);
    if (entry === undefined) return false;
    entry.leaseUntil = until.getTime();
    return true;
  }

  async release(lease: ConversionLease): Promise<void> {
    const entry = this.held(lease);
    if (entry === undefined) return;
    entry.leaseUntil = 0;
    delete entry.leaseId;
  }

  async discard(lease: ConversionLease): Promise<void> {
    const entry = this.held(lease);
    if (entry === undefined) return;
    this.byId.delete(lease.deliveryId);
    this.pairs.delete(pairOf(entry.delivery));
  }

  async makeDueOfAccount(dashboardId: string, adAccountId: string, now: Date): Promise<number> {
    let made = 0;
    for (const entry of this.byId.values()) {
      const { delivery } = entry;
      if (delivery.dashboardId !== dashboardId || delivery.adAccountId !== adAccountId || delivery.status !== 'pending') continue;
      if (delivery.nextAttemptAt === undefined || delivery.nextAttemptAt.getTime() <= now.getTime()) continue;
      entry.delivery = { ...delivery, nextAttemptAt: new Date(now) };
      made++;
    }
    return made;
  }

  async deleteOfAccount(dashboardId: string, adAccountId: string): Promise<void> {
    for (const [id, { delivery }] of this.byId) {
      if (delivery.dashboardId !== dashboardId || delivery.adAccountId !== adAccountId) continue;
      this.byId.delete(id);
      this.pairs.delete(pairOf(delivery));
    }
  }

  async purgeExpired(now: Date): Promise<number> {
    const cutoff = now.getTime() - CONVERSION_RETENTION_MS;
    let purged = 0;
    for (const [id, { delivery }] of this.byId) {
      if (delivery.createdAt.getTime() > cutoff) continue;
      this.byId.delete(id);
      this.pairs.delete(pairOf(delivery));
      purged++;
    }
    return purged;
  }

  private held(lease: ConversionLease): Entry | undefined {
    const entry = this.byId.get(lease.deliveryId);
    return entry !== undefined && entry.leaseId === lease.leaseId ? entry : undefined;
  }
}
