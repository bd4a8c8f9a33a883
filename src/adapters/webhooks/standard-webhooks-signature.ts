import { createHmac } from 'node:crypto';
import type { WebhookRequest } from '../../application/ports/webhook-sender';

const SECRET_PREFIX = 'whsec_';

/**
 * `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, keyed with the secret's decoded bytes: the
 * signature of Standard Webhooks (https://www.standardwebhooks.com), which its libraries verify.
 */
export const signature = (secret: string, webhookId: string, timestampSeconds: number, body: string): string => {
  const key = Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, 'base64');
  return `v1,${createHmac('sha256', key).update(`${webhookId}.${timestampSeconds}.${body}`).digest('base64')}`;
};

/** The three headers of a signed request; one signature per secret, space-separated. */
export const signedHeaders = (request: Pick<WebhookRequest, 'webhookId' | 'timestamp' | 'body' | 'secrets'>): Record<string, string> => {
  const timestampSeconds = Math.floor(request.timestamp.getTime() / 1000);
  return {
    'webhook-id': request.webhookId,
    'webhook-timestamp': String(timestampSeconds),
    'webhook-signature': request.secrets.map((secret) => signature(secret, request.webhookId, timestampSeconds, request.body)).join(' '),
  };
};
