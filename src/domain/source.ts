/**
 * A source (decision 0021): one checkout platform's webhooks, turned into the dashboard's orders. The
 * platform signs each delivery with its own secret, which the source keeps to check it.
 */

/**
 * The platforms a source can take webhooks from (decision 0021 names Shopify, WooCommerce, Stripe and Hotmart).
 * Each needs its adapter in the registry of src/adapters/sources, which does not compile without it.
 */
export const SOURCE_PLATFORMS = ['shopify', 'woocommerce', 'stripe', 'hotmart'] as const;
export type SourcePlatformName = (typeof SOURCE_PLATFORMS)[number];

/** A dashboard's sources, at most: enough for a shop per platform several times over, and a list that stays short. */
export const MAX_SOURCES_PER_DASHBOARD = 50;
export const MAX_SOURCE_NAME_LENGTH = 200;
/** Platform secrets are a few dozen characters (Stripe's `whsec_…`, Shopify's 64 hex digits); this bounds the HMAC key. */
export const MAX_SOURCE_SECRET_LENGTH = 512;
/**
 * A secret is printable ASCII, not only spaces: WooCommerce's generated secrets hold spaces among their
 * special characters (wp_generate_password with extra special characters), edges included.
 */
export const SOURCE_SECRET_PATTERN = /^[\x20-\x7E]*[\x21-\x7E][\x20-\x7E]*$/;

export const isSourceSecret = (u: unknown): u is string =>
  typeof u === 'string' && u.length <= MAX_SOURCE_SECRET_LENGTH && SOURCE_SECRET_PATTERN.test(u);

/** How many deliveries each source keeps: the newest, the oldest trimmed with each new one. */
export const MAX_SOURCE_DELIVERIES = 1_000;

export interface Source {
  /** `src_` and 22 random base62 characters (about 131 bits): the id is in the URL the platform posts to, unguessable. */
  readonly id: string;
  readonly dashboardId: string;
  readonly platform: SourcePlatformName;
  readonly name: string;
  /**
   * The platform's signing secret, as given: it keys the HMAC that checks each delivery, so it is kept
   * as webhook secrets are (readable by the service), and never shown again after creation.
   */
  readonly secret: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  /** Starts at 1 and grows by one with every stored change: the basis of optimistic concurrency. */
  readonly version: number;
}

/** The URL the platform posts to (decision 0021: `{PUBLIC_BASE_URL}/in/v1/{sourceId}`), for the API and the console alike. */
export const sourceUrl = (publicBaseUrl: string, source: Pick<Source, 'id'>): string =>
  `${publicBaseUrl}/in/v1/${encodeURIComponent(source.id)}`;

/** What a caller sends to create a source, validated at the edge. */
export interface NewSource {
  readonly platform: SourcePlatformName;
  readonly name: string;
  readonly secret: string;
}

export const newSource = (input: NewSource, ids: { readonly id: string; readonly dashboardId: string }, now: Date): Source => ({
  id: ids.id,
  dashboardId: ids.dashboardId,
  platform: input.platform,
  name: input.name,
  secret: input.secret,
  createdAt: now,
  updatedAt: now,
  version: 1,
});

/** A new name; the same name changes nothing (same version). */
export const renameSource = (source: Source, name: string, now: Date): Source =>
  name === source.name ? source : { ...source, name, version: source.version + 1, updatedAt: now };

/** A new secret: from now on only deliveries signed with it pass. */
export const replaceSourceSecret = (source: Source, secret: string, now: Date): Source => ({
  ...source,
  secret,
  version: source.version + 1,
  updatedAt: now,
});

/** What became of a delivery. */
export const SOURCE_DELIVERY_OUTCOMES = ['created', 'updated', 'ignored', 'refused'] as const;
export type SourceDeliveryOutcome = (typeof SOURCE_DELIVERY_OUTCOMES)[number];

/** One delivery as the source's log keeps it: never its body. */
export interface SourceDelivery {
  /** `sdl_…`. */
  readonly id: string;
  readonly sourceId: string;
  readonly dashboardId: string;
  readonly receivedAt: Date;
  /** The platform's id of the event or delivery (Stripe's `evt_…`, Shopify's event id), when it has one. */
  readonly eventId?: string;
  /** The platform's topic or event type (`orders/paid`, `charge.refunded`), when it says one. */
  readonly topic?: string;
  readonly outcome: SourceDeliveryOutcome;
  /** Why: what was ignored or refused, or what changed. */
  readonly reason?: string;
  /** The order it created or updated, or would have (`stripe:pi_…`). */
  readonly externalId?: string;
}
