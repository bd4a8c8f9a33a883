/** Wakes the sync workers of this process when an account became due (connected, edited, asked to sync). */
export interface AdSyncNudge {
  syncDue(): void;
}
