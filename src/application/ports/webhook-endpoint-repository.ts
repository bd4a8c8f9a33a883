import type { Option } from 'fp-ts/Option';
import type { WebhookEndpoint } from '../../domain/webhook';

/**
 * Where webhook endpoints live. Every method is scoped by dashboard: another dashboard's endpoint is
 * never seen. Implementations must agree on everything written here
 * (test/contract/webhook-endpoint-repository.contract.ts).
 */
export interface WebhookEndpointRepository {
  /**
   * Stores a new endpoint unless its dashboard already has `limit` endpoints; resolves whether it was
   * stored. Atomic: however many inserts into one dashboard race, it never ends up with more than
   * `limit` endpoints, and none is refused while there was room for it.
   */
  insert(endpoint: WebhookEndpoint, limit: number): Promise<boolean>;

  /** The endpoint, or `none` when the dashboard has no endpoint with this id. */
  find(dashboardId: string, id: string): Promise<Option<WebhookEndpoint>>;

  /** The dashboard's endpoints, oldest first (then by id). */
  listByDashboard(dashboardId: string): Promise<readonly WebhookEndpoint[]>;

  /**
   * Replaces the stored endpoint when its stored version is still `endpoint.version - 1`
   * (compare-and-set on one record): of racing replaces from one version exactly one resolves true.
   * Resolves false, writing nothing, when another write got there first or the endpoint is gone.
   */
  replace(endpoint: WebhookEndpoint): Promise<boolean>;

  /** Deletes the endpoint; resolves false when the dashboard had no endpoint with this id. */
  delete(dashboardId: string, id: string): Promise<boolean>;
}
