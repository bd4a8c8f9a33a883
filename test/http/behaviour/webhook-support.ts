import { expect } from 'chai';
import type { Harness } from '../harness';

export const WEBHOOKS = '/api/v1/webhooks';

/** POST /api/v1/webhooks, failing the test unless the endpoint was created. */
export const createWebhook = async (h: Harness, body: Record<string, unknown>, token = h.token): Promise<any> => {
  const res = await h.api.request('POST', WEBHOOKS, { token, body });
  expect(res.status, res.text).to.equal(201);
  return res.body.webhook;
};

/** GET the endpoint's delivery log, failing the test unless it answers 200. */
export const deliveriesOf = async (h: Harness, webhookId: string, query = '', token = h.token): Promise<any> => {
  const res = await h.api.request('GET', `${WEBHOOKS}/${webhookId}/deliveries${query}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body;
};

/** GET the endpoint, failing the test unless it is found. */
export const readWebhook = async (h: Harness, webhookId: string, token = h.token): Promise<any> => {
  const res = await h.api.request('GET', `${WEBHOOKS}/${webhookId}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.webhook;
};
