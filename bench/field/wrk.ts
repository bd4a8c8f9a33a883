import { spawn, spawnSync, type ChildProcess } from 'node:child_process';

/** wrk (Debian's package), the load generator of the field benchmark, run as a process of its own. */

export const WRK = process.env['BENCH_WRK'] ?? 'wrk';

/** wrk's version line, or undefined when it cannot be run. */
export const wrkVersion = (): string | undefined => {
  const probe = spawnSync(WRK, ['-v'], { encoding: 'utf8' });
  if (probe.error !== undefined) return undefined;
  // `wrk -v` prints its version and usage, and exits 1.
  const line = `${probe.stdout}${probe.stderr}`.split('\n').find((l) => l.startsWith('wrk '));
  return line === undefined ? undefined : line.replace(/ Copyright.*$/, '');
};

export interface WrkOptions {
  readonly url: string;
  readonly script: string;
  readonly args: readonly string[];
  readonly seconds: number;
  /** wrk's --timeout: an answer slower than this counts as a timeout error and not in the latencies. */
  readonly timeoutSeconds: number;
  readonly connections: number;
  readonly threads: number;
  readonly env: NodeJS.ProcessEnv;
}

export interface WrkResult {
  readonly requests: number;
  readonly perSecond: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Answers with a status other than 2xx or 3xx. */
  readonly non2xx3xx: number;
  /** connect, read, write and timeout errors together. */
  readonly socketErrors: number;
  readonly socketDetail: string;
  /** With BENCH_STATUSES=1: each status and its count. */
  readonly statuses: Readonly<Record<string, number>>;
  readonly raw: string;
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

const durationMs = (text: string | undefined): number => {
  const match = /^([\d.]+)(us|ms|s|m|h)$/.exec(text ?? '');
  return match === null ? NaN : Number(match[1]) * UNIT_MS[match[2]];
};

/** Reads wrk's report (with --latency). */
export const parseWrk = (out: string): WrkResult => {
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(out);
  const statuses: Record<string, number> = {};
  for (const match of out.matchAll(/^status (\d+): (\d+)$/gm)) statuses[match[1]] = Number(match[2]);
  return {
    requests: Number(/(\d+) requests in /.exec(out)?.[1] ?? NaN),
    perSecond: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1] ?? NaN),
    p50Ms: durationMs(/^\s+50%\s+(\S+)/m.exec(out)?.[1]),
    p99Ms: durationMs(/^\s+99%\s+(\S+)/m.exec(out)?.[1]),
    non2xx3xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(out)?.[1] ?? 0),
    socketErrors: socket === null ? 0 : socket.slice(1).reduce((sum, n) => sum + Number(n), 0),
    socketDetail: socket === null ? '' : `connect ${socket[1]}, read ${socket[2]}, write ${socket[3]}, timeout ${socket[4]}`,
    statuses,
    raw: out,
  };
};

/** The wrk process running now, so that an interrupt can stop it. */
let current: ChildProcess | undefined;
export const stopWrk = (): void => {
  current?.kill('SIGKILL');
};

/** One wrk run; stops by itself after `seconds` (and is killed if it overstays by its timeout and 30 s). */
export const runWrk = (options: WrkOptions): Promise<WrkResult> =>
  new Promise((resolve, reject) => {
    const args = [
      `-t${options.threads}`,
      `-c${options.connections}`,
      `-d${options.seconds}s`,
      '--latency',
      `--timeout`,
      `${options.timeoutSeconds}s`,
      '-s',
      options.script,
      options.url,
      '--',
      ...options.args,
    ];
    const child = spawn(WRK, args, { env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    current = child;
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
    const guard = setTimeout(() => child.kill('SIGKILL'), (options.seconds + options.timeoutSeconds + 30) * 1000);
    child.once('error', (err) => {
      clearTimeout(guard);
      reject(err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(guard);
      current = undefined;
      if (code !== 0) reject(new Error(`wrk exited with ${code ?? signal}: ${out.trim()}`));
      else resolve(parseWrk(out));
    });
  });
