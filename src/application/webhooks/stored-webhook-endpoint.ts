import * as O from 'fp-ts/Option';
import type { WebhookEndpoint } from '../../domain/webhook';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import { retryOnConflict } from '../shared/retry-on-conflict';

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
): Promise<O.Option<WebhookEndpoint>> =>
  retryOnConflict<O.Option<WebhookEndpoint>>('webhook endpoint', MAX_ROUNDS, async () => {
    const current = await endpoints.find(dashboardId, id);
    if (O.isNone(current)) return { done: current };
    const changed = change(current.value);
    if (changed.version === current.value.version) return { done: current };
    return (await endpoints.replace(changed)) ? { done: O.some(changed) } : 'conflict';
  });
