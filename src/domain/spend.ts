import type { SpendDimension } from './report';

/**
 * What a dashboard spent on one day (of its time zone) for one campaign key in one currency: set, not
 * added to, by each upload (decision 0016). A key field left out is `(not set)`.
 */
export interface SpendEntry extends Readonly<Record<SpendDimension, string>> {
  /** `YYYY-MM-DD`, a day of the dashboard's time zone. */
  readonly date: string;
  readonly currency: string;
  readonly amountCents: number;
  /**
   * The ad account whose sync wrote the entry (`meta:1234567890`), absent for uploaded spend: a sync
   * replaces its own rows only, and an upload never touches them.
   */
  readonly adAccount?: string;
}

/** At most this many entries in one upload. */
export const MAX_SPEND_ENTRIES = 1_000;
