import type * as O from 'fp-ts/Option';
import type { WebhookEndpoint } from '../../domain/webhook';
import type { WebhookEndpointRepository } from '../ports/webhook-endpoint-repository';
import { changeStored } from '../shared/change-stored';

/** Applies `change` to the stored endpoint with optimistic concurrency (see `changeStored`); `none` when the dashboard has no such endpoint. */
export const changeStoredEndpoint = (
  endpoints: WebhookEndpointRepository,
  dashboardId: string,
  id: string,
  change: (current: WebhookEndpoint) => WebhookEndpoint,
): Promise<O.Option<WebhookEndpoint>> => changeStored('webhook endpoint', endpoints, dashboardId, id, change);
