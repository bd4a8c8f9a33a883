import * as t from 'io-ts';
import {
  isSourceSecret,
  MAX_SOURCE_NAME_LENGTH,
  MAX_SOURCE_SECRET_LENGTH,
  SOURCE_DELIVERY_OUTCOMES,
  SOURCE_PLATFORMS,
  SOURCE_SECRET_PATTERN,
} from '../../../domain/source';
import { IdParam } from '../access/admin-codecs';
import { check, oneOf, str, strictObject } from '../kit/codec-kit';
import { utcDateTime } from '../kit/dates';
import { component, described } from '../kit/json-schema';
import { listPage, pagingParams } from '../kit/list-query';

/** Codecs of what a caller sends and reads about sources (decision 0021). */

export const sourcePlatform = component(
  'SourcePlatform',
  oneOf(SOURCE_PLATFORMS),
  'The checkout platform whose webhooks the source takes: its signature and its payloads.',
);

const secret = described(
  check('SourceSecret', isSourceSecret, `must be 1 to ${MAX_SOURCE_SECRET_LENGTH} printable ASCII characters, not all spaces`, {
    type: 'string',
    minLength: 1,
    maxLength: MAX_SOURCE_SECRET_LENGTH,
    pattern: SOURCE_SECRET_PATTERN.source,
  }),
  "The platform's own secret: Shopify's webhook signing secret, WooCommerce's webhook secret, Stripe's endpoint secret (`whsec_…`), Hotmart's hottok. Kept to check each delivery; never shown again.",
);

const name = str(1, MAX_SOURCE_NAME_LENGTH);

export const CreateSourceBody = strictObject(
  'CreateSourceRequest',
  { platform: sourcePlatform, name, secret },
  {},
  { description: 'A new source. Unknown fields are refused.' },
);

export const RenameSourceBody = strictObject(
  'RenameSourceRequest',
  { name },
  {},
  { description: 'The new name. Unknown fields are refused.' },
);

export const ReplaceSourceSecretBody = strictObject(
  'ReplaceSourceSecretRequest',
  { secret },
  {},
  { description: "The platform's new secret. Unknown fields are refused." },
);

export const SourcePath = strictObject('SourcePath', { sourceId: described(IdParam, 'The id of the source (`src_…`).') });

export const ListSourceDeliveriesQuery = strictObject('ListSourceDeliveriesQuery', {}, pagingParams('Deliveries'));

const sourceFields = {
  id: described(t.string, 'Made by the service (`src_…`), about 131 random bits: it is in the URL the platform posts to.'),
  platform: sourcePlatform,
  name,
  url: described(t.string, 'Where the platform posts its webhooks: `PUBLIC_BASE_URL` + `/in/v1/` + the id. Paste it into the platform.'),
  createdAt: utcDateTime,
};

export const Source = strictObject('Source', sourceFields, {}, { description: 'A source, without its secret.' });
export const SourceResponse = strictObject('SourceResponse', { source: Source });
export const SourceList = strictObject('SourceList', { sources: described(t.array(Source), 'Oldest first.') });

const outcome = component(
  'SourceDeliveryOutcome',
  oneOf(SOURCE_DELIVERY_OUTCOMES),
  '`created` or `updated` an order; `ignored` (another topic, a test, a retry, an event older than the order, nothing new); `refused` (a bad signature, a payload that cannot become an order, a status change the transition table refuses).',
);

const nullableText = described(t.union([t.string, t.null]), '`null` when the delivery did not say.');

export const SourceDeliveryView = strictObject('SourceDelivery', {
  id: described(t.string, 'Made by the service (`sdl_…`).'),
  receivedAt: utcDateTime,
  eventId: described(
    t.union([t.string, t.null]),
    "The platform's event or delivery id; `null` when it gave none (or the signature was refused).",
  ),
  topic: nullableText,
  outcome,
  reason: described(t.union([t.string, t.null]), 'Why, in words: what changed, or why nothing did.'),
  externalId: described(t.union([t.string, t.null]), 'The order concerned (`<platform>:<its order id>`), when there is one.'),
});

export const SourceDeliveryList = listPage(
  'SourceDeliveryList',
  'deliveries',
  SourceDeliveryView,
  'Every delivery the source keeps (its last 1,000), on all pages.',
  'Newest first.',
);

/** What a platform is answered: 200 whatever became of the delivery, so that it does not retry. */
export const DeliveryReceipt = strictObject('SourceDeliveryReceipt', { received: described(t.literal(true), 'Always true.'), outcome });
