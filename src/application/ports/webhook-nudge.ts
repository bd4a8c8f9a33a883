/**
 * Wakes the webhook workers of this process when there is work for them, so that an event reaches
 * its endpoint without waiting for the next poll. Only a hint: the work is in the store, where the
 * workers of every process find it by polling, so a nudge that is lost (or made by another process)
 * delays nothing for longer than a poll.
 */
export interface WebhookNudge {
  /** An order's outbox received events. */
  outboxChanged(): void;
  /** A delivery became due. */
  deliveriesDue(): void;
}
