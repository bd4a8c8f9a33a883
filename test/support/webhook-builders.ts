import type { Delivery } from '../../src/domain/delivery';
import type { WebhookEndpoint } from '../../src/domain/webhook';
import { TEST_EPOCH } from './mutable-clock';

/** An endpoint with fixed values, as a use case would store it. */
export const anEndpoint = (id: string, changes: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id,
  dashboardId: 'dsh_a',
  url: `https://hooks.example.com/${id}`,
  events: [],
  enabled: true,
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw5bYqQn2MBuQ=',
  createdAt: new Date('2026-01-02T03:04:05.678Z'),
  updatedAt: new Date('2026-01-02T03:04:05.678Z'),
  version: 1,
  ...changes,
});

/** A delivery with fixed values, pending and due at TEST_EPOCH. */
export const aDelivery = (id: string, changes: Partial<Delivery> = {}): Delivery => ({
  id,
  dashboardId: 'dsh_a',
  endpointId: 'whk_1',
  eventId: `evt_${id}`,
  eventType: 'order.created',
  status: 'pending',
  attempts: [],
  nextAttemptAt: new Date(TEST_EPOCH),
  createdAt: new Date(TEST_EPOCH),
  payload: { id: `evt_${id}`, type: 'order.created', data: { order: { id: 'ord_1', amounts: { grossCents: 10_000 } } } },
  body: `{"id":"evt_${id}","note":"ção ✓"}`,
  automaticRetries: true,
  ...changes,
});
