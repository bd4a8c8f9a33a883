import type { ServerResponse } from 'node:http';

/** How many heavy requests of one dashboard run at once, how many more may wait, and what makes a request heavy. */
export interface HeavyRequestBounds {
  /** HEAVY_REQUESTS_PER_DASHBOARD: heavy requests of one dashboard in progress at once. */
  readonly perDashboard: number;
  /** HEAVY_REQUEST_QUEUE: heavy requests of one dashboard waiting for a turn, their bodies unread. */
  readonly queue: number;
  /** HEAVY_BODY_BYTES: a body declared longer than this is heavy (a body of unknown length always is). */
  readonly heavyBodyBytes: number;
  /**
   * HEAVY_TURN_REST: a turn held for t ms rests t × this (at most MAX_TURN_REST_MS) before the next
   * heavy request of its dashboard takes it; 0, never. It bounds how often, where the turns bound how
   * many: with 1, one dashboard's heavy requests hold the event loop at most about half the time.
   */
  readonly rest: number;
}

/** The longest a turn rests: a slow upload that held its turn for seconds costs its dashboard one second. */
export const MAX_TURN_REST_MS = 1_000;

/** decision 0023: one turn per dashboard and a short queue; 64 KiB is the console's form limit, and many times a usual order's body. */
export const HEAVY_REQUEST_BOUNDS: HeavyRequestBounds = { perDashboard: 1, queue: 2, heavyBodyBytes: 64 * 1024, rest: 1 };

/** What a refused request is told: its own dashboard's bounds, never another dashboard's state. */
export interface HeavyRequestRefusal {
  readonly perDashboard: number;
  readonly queue: number;
  readonly retryAfterSeconds: number;
}

/** Gives the turn back; calling it again does nothing. */
export type ReleaseTurn = () => void;

/** The request headers that say how long a body is. */
export interface BodyHeaders {
  readonly contentLength: string | undefined;
  readonly transferEncoding: string | undefined;
}

/**
 * Whether a request's body is heavy: declared longer than `heavyBodyBytes`, or of a length not
 * declared (chunked), which may be anything up to the route's limit. A malformed Content-Length is
 * heavy too; the body reader refuses it afterwards.
 */
export const isHeavy = ({ contentLength, transferEncoding }: BodyHeaders, heavyBodyBytes: number): boolean => {
  if (transferEncoding !== undefined && transferEncoding !== '') return true;
  if (contentLength === undefined || contentLength === '') return false;
  const length = /^\d{1,15}$/.test(contentLength) ? Number(contentLength) : Number.POSITIVE_INFINITY;
  return length > heavyBodyBytes;
};

/** Aborted when the connection closes before the answer is written: the client went away, and a waiter leaves its queue. */
export const abandonedWhenClosed = (res: ServerResponse): AbortSignal => {
  const controller = new AbortController();
  res.once('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  return controller.signal;
};

interface Waiter {
  readonly admit: (release: ReleaseTurn) => void;
}

interface Lane {
  running: number;
  readonly waiting: Waiter[];
}

/**
 * Turns for the work whose main-thread cost grows with a body (reading, checking and parsing a large
 * JSON body, a batch, a CSV upload), per dashboard (decision 0023): every stretch of that work shares
 * the one event loop, so a dashboard with 16 such requests in flight would get 16 shares of it to
 * another dashboard's one. Here a dashboard has at most `perDashboard` in progress and `queue`
 * waiting in order; one more is refused at once, before its body is read. A waiter that goes away
 * leaves the queue. A turn given back rests in proportion to how long it was held (`rest`) before
 * it goes to the next: without it, one request after another, a dashboard still held the loop most
 * of the time (2 MiB console uploads back to back put another dashboard's POST p50 at 9.8x its own).
 * Lanes are dropped when empty, so the map holds only busy dashboards.
 */
export class HeavyRequestTurns {
  private readonly lanes = new Map<string, Lane>();

  constructor(readonly bounds: HeavyRequestBounds = HEAVY_REQUEST_BOUNDS) {}

  /**
   * A turn for `dashboardId` (a function that gives it back): at once, after the ones ahead of it,
   * or a refusal. `abandoned` ends a wait (the client went away) with a release that does nothing.
   */
  async take(dashboardId: string, abandoned: AbortSignal): Promise<ReleaseTurn | HeavyRequestRefusal> {
    const lane = this.lanes.get(dashboardId) ?? { running: 0, waiting: [] };
    this.lanes.set(dashboardId, lane);
    if (lane.running < this.bounds.perDashboard) {
      lane.running++;
      return this.releaseOf(dashboardId, lane);
    }
    if (lane.waiting.length >= this.bounds.queue || abandoned.aborted) {
      return { perDashboard: this.bounds.perDashboard, queue: this.bounds.queue, retryAfterSeconds: 1 };
    }
    return new Promise<ReleaseTurn>((resolve) => {
      const waiter: Waiter = {
        admit: (release) => {
          abandoned.removeEventListener('abort', leave);
          resolve(release);
        },
      };
      const leave = (): void => {
        const at = lane.waiting.indexOf(waiter);
        if (at >= 0) lane.waiting.splice(at, 1);
        this.dropIfIdle(dashboardId, lane);
        resolve(() => undefined);
      };
      abandoned.addEventListener('abort', leave, { once: true });
      lane.waiting.push(waiter);
    });
  }

  /** Heavy requests of `dashboardId` in progress and waiting, for tests and metrics. */
  load(dashboardId: string): { readonly running: number; readonly waiting: number } {
    const lane = this.lanes.get(dashboardId);
    return { running: lane?.running ?? 0, waiting: lane?.waiting.length ?? 0 };
  }

  private releaseOf(dashboardId: string, lane: Lane): ReleaseTurn {
    const taken = performance.now();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const rest = Math.min(MAX_TURN_REST_MS, (performance.now() - taken) * this.bounds.rest);
      if (rest < 1) this.handOver(dashboardId, lane);
      // Unref'd: a resting turn never keeps a stopping process alive.
      else setTimeout(() => this.handOver(dashboardId, lane), rest).unref();
    };
  }

  /** The turn to the first in the queue (`running` stays as it is), or back to the lane. */
  private handOver(dashboardId: string, lane: Lane): void {
    const next = lane.waiting.shift();
    if (next !== undefined) {
      next.admit(this.releaseOf(dashboardId, lane));
      return;
    }
    lane.running--;
    this.dropIfIdle(dashboardId, lane);
  }

  private dropIfIdle(dashboardId: string, lane: Lane): void {
    if (lane.running === 0 && lane.waiting.length === 0 && this.lanes.get(dashboardId) === lane) this.lanes.delete(dashboardId);
  }
}
