import type { Option } from 'fp-ts/Option';
import type { Delivery, DeliveryStatus } from '../../domain/delivery';

export interface DeliveryQuery {
  readonly status?: DeliveryStatus;
  /** 1-based. */
  readonly page: number;
  readonly pageSize: number;
}

export interface DeliveryPage {
  readonly deliveries: readonly Delivery[];
  /** Every delivery of the endpoint that matches the filter, whatever the page. */
  readonly total: number;
}

/** The right to make the due attempt of one delivery, until the lease ends. */
export interface DeliveryLease {
  readonly deliveryId: string;
  /** A new one with every claim: a claimant whose lease was taken over can no longer write. */
  readonly leaseId: string;
}

export interface ClaimedDelivery {
  readonly delivery: Delivery;
  readonly lease: DeliveryLease;
}

export interface DueClaim {
  readonly now: Date;
  /** How long the claim holds; past it, another claimant may take the delivery (its claimant died). */
  readonly leaseMs: number;
  /** The most deliveries to claim. */
  readonly limit: number;
  /** Endpoints whose deliveries are not to be claimed now (those already busy in this process). */
  readonly skipEndpoints: readonly string[];
  /** Dashboards whose deliveries are not to be claimed now (those holding their share of this process's attempts). */
  readonly skipDashboards: readonly string[];
}

/**
 * Webhook deliveries and their log. Reads are scoped by dashboard and endpoint; the worker's methods
 * go by lease. Implementations must agree on everything written here
 * (test/contract/delivery-repository.contract.ts).
 */
export interface DeliveryRepository {
  /**
   * Stores a new delivery unless one for the same (eventId, endpointId) is stored: resolves whether
   * it stored it. Idempotent on that pair, atomically: of racing inserts of one pair, one stores.
   */
  insert(delivery: Delivery): Promise<boolean>;

  /** The delivery, or `none` when that endpoint of that dashboard has no delivery with this id. */
  find(dashboardId: string, endpointId: string, deliveryId: string): Promise<Option<Delivery>>;

  /** One page of the endpoint's deliveries, newest first: `createdAt` descending, then `id` descending. */
  list(dashboardId: string, endpointId: string, query: DeliveryQuery): Promise<DeliveryPage>;

  /**
   * Claims up to `limit` pending deliveries whose next attempt is due at `now` and which nobody holds
   * (no lease, or a lease that has ended), of none of the endpoints and dashboards to skip, the
   * longest due first, each for `leaseMs`. Each claim is
   * atomic: of any number of claimants, in this process or others on the same store, one gets a
   * delivery; the others get other deliveries or none.
   */
  claimDue(claim: DueClaim): Promise<readonly ClaimedDelivery[]>;

  /**
   * Stores the delivery as an attempt left it (status, attempts, next attempt) and ends the lease,
   * when `lease` still holds it; resolves false, writing nothing, when it does not (the lease ended
   * and another claimant took the delivery over, or it was deleted).
   */
  complete(lease: DeliveryLease, delivery: Delivery): Promise<boolean>;

  /**
   * Moves the end of the lease to `until` when `lease` still holds the delivery, and resolves whether
   * it did: an attempt that runs long keeps its claim, while the claim of a process that died ends soon.
   */
  renew(lease: DeliveryLease, until: Date): Promise<boolean>;

  /** Ends the lease without an attempt, when it still holds: the delivery is due again as it was. */
  release(lease: DeliveryLease): Promise<void>;

  /** Deletes the delivery when `lease` still holds it (its endpoint is gone). */
  discard(lease: DeliveryLease): Promise<void>;

  /**
   * Makes the delivery due at `now`, and resolves it as it is then; `none` when that endpoint of that
   * dashboard has no such delivery. A pending delivery keeps its attempts and its schedule; a
   * finished one (succeeded or failed) becomes pending for one more attempt, without automatic
   * retries after it. An attempt in flight is not disturbed: its lease still holds the delivery.
   */
  retryNow(dashboardId: string, endpointId: string, deliveryId: string, now: Date): Promise<Option<Delivery>>;

  /** Deletes every delivery of the endpoint (it was deleted). */
  deleteOfEndpoint(dashboardId: string, endpointId: string): Promise<void>;

  /** Deletes the deliveries made DELIVERY_RETENTION_MS or longer before `now`; resolves how many. */
  purgeExpired(now: Date): Promise<number>;
}
