/** Gives the share back; calling it again does nothing. */
export type ReleaseShare = () => void;

interface Lane {
  inFlight: number;
  readonly waiting: (() => void)[];
}

/** How long a dashboard counts as active after its last request began: the gap between a client's requests. */
export const ACTIVE_MS = 1_000;

/**
 * Each dashboard's share of the requests in progress, when several dashboards are active. The event
 * loop serves the requests in progress in turn, so a dashboard with four in progress gets four turns
 * to another's one: beside one that records orders four at a time, another dashboard's order POST
 * took 4.4-7.4 times its time alone. Here, while another dashboard is active (it has a request in
 * progress, waiting, or begun in the last ACTIVE_MS), a dashboard has at most `perDashboard` in
 * progress and the rest wait in order (their bodies unread); alone, a dashboard has as many as it
 * sends. Nothing is refused: a waiting request starts as soon as one of its dashboard's ends, or once
 * its dashboard is alone again. A waiter whose client goes away leaves the queue.
 */
export class DashboardShares {
  private readonly lanes = new Map<string, Lane>();
  /** The dashboards with requests waiting: a share given back looks at these only. */
  private readonly queued = new Set<string>();
  /** When each recently active dashboard last began a request, oldest first. */
  private readonly seen = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;

  constructor(
    readonly perDashboard: number,
    private readonly activeMs = ACTIVE_MS,
  ) {}

  /** A share for `dashboardId`: at once, or once one of its requests in progress ends (or it is alone). */
  async take(dashboardId: string, abandoned: AbortSignal): Promise<ReleaseShare> {
    const lane = this.lanes.get(dashboardId) ?? { inFlight: 0, waiting: [] };
    this.lanes.set(dashboardId, lane);
    this.forgetStale();
    this.seen.delete(dashboardId);
    this.seen.set(dashboardId, performance.now());
    if (lane.waiting.length === 0 && this.mayStart(dashboardId, lane)) {
      lane.inFlight++;
      return this.releaseOf(dashboardId, lane);
    }
    if (abandoned.aborted) return this.leftEmpty(dashboardId, lane);
    const admitted = await new Promise<boolean>((resolve) => {
      const admit = (): void => {
        abandoned.removeEventListener('abort', leave);
        resolve(true);
      };
      const leave = (): void => {
        const at = lane.waiting.indexOf(admit);
        if (at >= 0) lane.waiting.splice(at, 1);
        if (lane.waiting.length === 0) this.queued.delete(dashboardId);
        resolve(false);
      };
      abandoned.addEventListener('abort', leave, { once: true });
      lane.waiting.push(admit);
      this.queued.add(dashboardId);
      this.pumpLater();
    });
    return admitted ? this.releaseOf(dashboardId, lane) : this.leftEmpty(dashboardId, lane);
  }

  /** A waiter gone before its turn: nothing to give back. */
  private leftEmpty(dashboardId: string, lane: Lane): ReleaseShare {
    this.dropIfIdle(dashboardId, lane);
    this.pump();
    return () => undefined;
  }

  /** Requests of `dashboardId` in progress and waiting, for tests. */
  load(dashboardId: string): { readonly inFlight: number; readonly waiting: number } {
    const lane = this.lanes.get(dashboardId);
    return { inFlight: lane?.inFlight ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  /** Under its share, or the only active dashboard. */
  private mayStart(dashboardId: string, lane: Lane): boolean {
    return lane.inFlight < this.perDashboard || !this.othersActive(dashboardId);
  }

  /** Whether a dashboard other than `dashboardId` has requests, or began one in the last `activeMs`. */
  private othersActive(dashboardId: string): boolean {
    this.forgetStale();
    if (this.seen.size > 1 || (this.seen.size === 1 && !this.seen.has(dashboardId))) return true;
    for (const other of this.lanes.keys()) if (other !== dashboardId) return true;
    return false;
  }

  /** Drops the dashboards whose last request began more than `activeMs` ago (the oldest come first). */
  private forgetStale(): void {
    const stale = performance.now() - this.activeMs;
    for (const [dashboardId, at] of this.seen) {
      if (at >= stale) break;
      this.seen.delete(dashboardId);
    }
  }

  /** Looks again once the others may have gone quiet: a waiter may start when its dashboard is alone. */
  private pumpLater(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
      if (this.queued.size > 0) this.pumpLater();
    }, this.activeMs);
    // Unref'd: waiting requests keep the process alive, not this.
    this.timer.unref();
  }

  private releaseOf(dashboardId: string, lane: Lane): ReleaseShare {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      lane.inFlight--;
      this.dropIfIdle(dashboardId, lane);
      this.pump();
    };
  }

  /** Starts every waiter that may start now: of the lane that gave a share back, or of a dashboard now alone. */
  private pump(): void {
    for (const dashboardId of this.queued) {
      const lane = this.lanes.get(dashboardId)!;
      while (lane.waiting.length > 0 && this.mayStart(dashboardId, lane)) {
        lane.inFlight++;
        lane.waiting.shift()!();
      }
      if (lane.waiting.length === 0) this.queued.delete(dashboardId);
    }
  }

  private dropIfIdle(dashboardId: string, lane: Lane): void {
    if (lane.inFlight === 0 && lane.waiting.length === 0 && this.lanes.get(dashboardId) === lane) this.lanes.delete(dashboardId);
  }
}

/** Requests of one dashboard in progress at once while another dashboard has some: two. */
export const DASHBOARD_SHARE = 2;
