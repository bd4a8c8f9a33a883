import { sourceUrl, type Source, type SourceDelivery } from '../../../domain/source';

/** A source as the API shows it: never its secret. */
export const sourceView = (source: Source, publicBaseUrl: string) => ({
  id: source.id,
  platform: source.platform,
  name: source.name,
  url: sourceUrl(publicBaseUrl, source),
  createdAt: source.createdAt.toISOString(),
});

export const sourceDeliveryView = (delivery: SourceDelivery) => ({
  id: delivery.id,
  receivedAt: delivery.receivedAt.toISOString(),
  eventId: delivery.eventId ?? null,
  topic: delivery.topic ?? null,
  outcome: delivery.outcome,
  reason: delivery.reason ?? null,
  externalId: delivery.externalId ?? null,
});
