/** Wakes the conversion senders of this process: the relay made deliveries, or new credentials make an account's due again. */
export interface ConversionNudge {
  conversionsDue(): void;
}
