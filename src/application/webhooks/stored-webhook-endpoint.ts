import * as O from 'fp-ts/Option';
import type { WebhookEndpoint } from '../../domain/webhook';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import { ConcurrentUpdateError } from '../orders/update-order';

/** Each lost round is another write of the endpoint landing in between; endpoints are rarely written. */
const MAX_ROUNDS = 20;

/**
 * Applies `change` to the stored endpoint with optimistic concurrency: read, change, compare-and-set
 * on the version, again when another write got there first. A change that returns the endpoint
 * unchanged writes nothing. `none` when the dashboard has no such endpoint.
 */
export const changeStoredEndpoint = async (
  endpoints: WebhookEndpointRepository,
  dashboardId: string,
  id: string,
  change: (current: WebhookEndpoint) => WebhookEndpoint,
): Promise<O.Option<WebhookEndpoint>> => {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const current = await endpoints.find(dashboardId, id);
    if (O.isNone(current)) return current;
    const changed = change(current.value);
    if (changed.version === current.value.version) return current;
    if (await endpoints.replace(changed)) return O.some(changed);
  }
  throw new ConcurrentUpdateError(`webhook endpoint kept changing during ${MAX_ROUNDS} attempts`);
};
