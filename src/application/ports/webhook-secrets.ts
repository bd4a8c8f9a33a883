/** Makes webhook signing secrets (decision 0012). */
export interface WebhookSecrets {
  /** `whsec_` and the base64 of 32 random bytes. */
  generate(): string;
}
