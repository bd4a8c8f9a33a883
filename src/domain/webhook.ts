import { ORDER_EVENT_TYPES } from './order-events';

/**
 * What a webhook endpoint can be sent (decision 0012): every event an order change emits, and
 * `webhook.test`, which no change emits: only the test route sends it, to one endpoint.
 */
export const WEBHOOK_EVENT_TYPES = [...ORDER_EVENT_TYPES, 'webhook.test'] as const;

export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** decision 0012. */
export const MAX_WEBHOOKS_PER_DASHBOARD = 20;
export const MAX_WEBHOOK_URL_LENGTH = 2_048;
export const MAX_WEBHOOK_DESCRIPTION_LENGTH = 200;

/** How long the secret a rotation replaced keeps signing beside the new one. */
export const SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

export interface PreviousSecret {
  readonly secret: string;
  /** When it stops signing. */
  readonly expiresAt: Date;
}

/** Where a dashboard wants its events sent. */
export interface WebhookEndpoint {
  /** `whk_…`, made by the service. */
  readonly id: string;
  readonly dashboardId: string;
  readonly url: string;
  /** The event types it is sent; empty means every type. No duplicates. */
  readonly events: readonly WebhookEventType[];
  readonly description?: string;
  readonly enabled: boolean;
  /** Why the service disabled it; only on an endpoint disabled by the service (a 410 from the receiver). */
  readonly disabledReason?: string;
  /** `whsec_` and the base64 of the key: what signs every request. */
  readonly secret: string;
  /** The secret the last rotation replaced, while it still signs beside `secret`. */
  readonly previousSecret?: PreviousSecret;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Starts at 1 and grows by one with every stored change: the basis of optimistic concurrency. */
  readonly version: number;
}

/** What a caller sends to create an endpoint, validated at the edge. */
export interface NewWebhookEndpoint {
  readonly url: string;
  readonly events?: readonly WebhookEventType[];
  readonly description?: string;
}

/** What a PATCH may change; a `description` of `null` removes it. */
export interface WebhookEndpointChanges {
  readonly url?: string;
  readonly events?: readonly WebhookEventType[];
  readonly description?: string | null;
  readonly enabled?: boolean;
}

const distinct = (events: readonly WebhookEventType[] = []): WebhookEventType[] => [...new Set(events)];

export const newWebhookEndpoint = (
  input: NewWebhookEndpoint,
  ids: { readonly id: string; readonly dashboardId: string },
  secret: string,
  now: Date,
): WebhookEndpoint => ({
  id: ids.id,
  dashboardId: ids.dashboardId,
  url: input.url,
  events: distinct(input.events),
  ...(input.description === undefined ? {} : { description: input.description }),
  enabled: true,
  secret,
  createdAt: now,
  updatedAt: now,
  version: 1,
});

const nextVersion = (endpoint: WebhookEndpoint, now: Date): Pick<WebhookEndpoint, 'version' | 'updatedAt'> => ({
  version: endpoint.version + 1,
  updatedAt: now,
});

const sameEvents = (a: readonly WebhookEventType[], b: readonly WebhookEventType[]): boolean =>
  a.length === b.length && a.every((type, i) => b[i] === type);

/**
 * Applies a PATCH. Enabling an endpoint clears the reason the service disabled it for. A change that
 * changes nothing gives back the endpoint as it was, same version.
 */
export const changeWebhookEndpoint = (endpoint: WebhookEndpoint, changes: WebhookEndpointChanges, now: Date): WebhookEndpoint => {
  const { description: _description, disabledReason: _reason, ...rest } = endpoint;
  const description = changes.description === undefined ? endpoint.description : (changes.description ?? undefined);
  const enabled = changes.enabled ?? endpoint.enabled;
  const disabledReason = enabled ? undefined : endpoint.disabledReason;
  const changed: WebhookEndpoint = {
    ...rest,
    url: changes.url ?? endpoint.url,
    events: changes.events === undefined ? endpoint.events : distinct(changes.events),
    ...(description === undefined ? {} : { description }),
    enabled,
    ...(disabledReason === undefined ? {} : { disabledReason }),
  };
  const same =
    changed.url === endpoint.url &&
    sameEvents(changed.events, endpoint.events) &&
    changed.description === endpoint.description &&
    changed.enabled === endpoint.enabled &&
    changed.disabledReason === endpoint.disabledReason;
  return same ? endpoint : { ...changed, ...nextVersion(endpoint, now) };
};

/** A new secret; the one it replaces keeps signing beside it for SECRET_OVERLAP_MS. */
export const rotateWebhookSecret = (endpoint: WebhookEndpoint, secret: string, now: Date): WebhookEndpoint => ({
  ...endpoint,
  secret,
  previousSecret: { secret: endpoint.secret, expiresAt: new Date(now.getTime() + SECRET_OVERLAP_MS) },
  ...nextVersion(endpoint, now),
});

/** The service disables an endpoint whose receiver said it is gone (410); its owner may enable it again. */
export const disableWebhookEndpoint = (endpoint: WebhookEndpoint, reason: string, now: Date): WebhookEndpoint => ({
  ...endpoint,
  enabled: false,
  disabledReason: reason,
  ...nextVersion(endpoint, now),
});

/** The secrets that sign a request sent at `now`: the current one first, then the previous one while it overlaps. */
export const signingSecrets = (endpoint: WebhookEndpoint, now: Date): readonly string[] =>
  endpoint.previousSecret !== undefined && now.getTime() < endpoint.previousSecret.expiresAt.getTime()
    ? [endpoint.secret, endpoint.previousSecret.secret]
    : [endpoint.secret];

/** Whether an order event of `type` is sent to the endpoint: it is enabled and wants that type. */
export const subscribes = (endpoint: WebhookEndpoint, type: WebhookEventType): boolean =>
  endpoint.enabled && (endpoint.events.length === 0 || endpoint.events.includes(type));
