/** Makes webhook signing secrets (DECISIONS D12). */
export interface WebhookSecrets {
  /** `whsec_` and the base64 of 32 random bytes. */
  generate(): string;
}
