import { Agent, request } from 'node:http';

/** One request of a workload. */
export interface RequestSpec {
  readonly method: string;
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** JSON unless `headers` name another `content-type`; a Buffer is sent as it is, without a copy. */
  readonly body?: string | Buffer;
}

export interface LoadOptions {
  readonly baseUrl: string;
  readonly requests: number;
  /** Requests in flight at once (a closed loop: each worker sends its next when its last answered). */
  readonly concurrency: number;
  /** Stops sending requests after this long, so that a slow store cannot stretch the run. */
  readonly maxMs: number;
  readonly expectedStatus: number;
}

/** The raw measurements of one or more runs of a workload. */
export interface Samples {
  readonly latenciesMs: number[];
  unexpected: number;
  elapsedMs: number;
}

export const noSamples = (): Samples => ({ latenciesMs: [], unexpected: 0, elapsedMs: 0 });

export interface LoadSummary {
  readonly completed: number;
  readonly unexpected: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
}

/** Sends one request over `agent` and reads the whole answer; resolves its status and latency. */
export const send = (agent: Agent, url: URL, spec: RequestSpec): Promise<{ status: number; ms: number }> =>
  new Promise((resolve, reject) => {
    const started = performance.now();
    const headers: Record<string, string | number> = { ...(spec.headers ?? {}) };
    if (spec.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = Buffer.byteLength(spec.body);
    }
    const req = request({ agent, host: url.hostname, port: url.port, method: spec.method, path: spec.path, headers }, (res) => {
      res.on('data', () => undefined);
      res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(spec.body);
  });

/**
 * Sends `requests` requests made by `next` with a fixed concurrency over keep-alive loopback
 * connections, adding what it measured to `into`. Bounded by the count and by `maxMs`.
 */
export const runLoad = async (options: LoadOptions, next: () => RequestSpec, into: Samples): Promise<void> => {
  const url = new URL(options.baseUrl);
  const agent = new Agent({ keepAlive: true, maxSockets: options.concurrency });
  const started = performance.now();
  const deadline = started + options.maxMs;
  let sent = 0;
  const worker = async (): Promise<void> => {
    while (sent < options.requests && performance.now() < deadline) {
      sent += 1;
      const answer = await send(agent, url, next());
      into.latenciesMs.push(answer.ms);
      if (answer.status !== options.expectedStatus) into.unexpected += 1;
    }
  };
  try {
    await Promise.all(Array.from({ length: options.concurrency }, worker));
    into.elapsedMs += performance.now() - started;
  } finally {
    agent.destroy();
  }
};

const percentile = (sorted: readonly number[], p: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];

/** Throughput over the time spent in the runs, and latency percentiles over all their requests. */
export const summarize = (samples: Samples): LoadSummary => {
  const sorted = [...samples.latenciesMs].sort((a, b) => a - b);
  return {
    completed: sorted.length,
    unexpected: samples.unexpected,
    perSecond: (sorted.length / samples.elapsedMs) * 1000,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
  };
};
