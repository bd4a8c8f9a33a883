import { randomBytes } from 'node:crypto';
import type { WebhookSecrets } from '../../application/ports/webhook-secrets';

/** The form of a webhook secret: `whsec_` and the base64 of 32 bytes (Standard Webhooks). */
export const WEBHOOK_SECRET_SHAPE = /^whsec_[A-Za-z0-9+/]{43}=$/;

/** Secrets of 256 random bits from the operating system's generator. */
export class RandomWebhookSecrets implements WebhookSecrets {
  generate(): string {
    return `whsec_${randomBytes(32).toString('base64')}`;
  }
}
