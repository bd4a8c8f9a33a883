import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../../test/bootstrap/service-process';

/**
 * The servers the field benchmark starts, each a process of its own on a free loopback port. Every
 * child is registered, so that the end of the run, an error or an interrupt (SIGINT, SIGTERM) stops
 * them all: SIGTERM, then SIGKILL after a few seconds, and SIGKILL from the `exit` hook as a last resort.
 */

const children = new Set<ChildProcess>();

/** USER_HZ, the unit of /proc's CPU times: 100 on Linux whatever the kernel's tick. */
const CLOCK_TICKS = 100;

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

export class ServerProcess {
  readonly url: string;
  private readonly stderr: string[] = [];
  private readonly exited: Promise<void>;

  private constructor(
    readonly name: string,
    private readonly child: ChildProcess,
    port: number,
  ) {
    this.url = `http://127.0.0.1:${port}`;
    children.add(child);
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr.push(chunk);
      if (this.stderr.length > 50) this.stderr.shift();
    });
    this.exited = new Promise((done) =>
      child.once('exit', () => {
        children.delete(child);
        done();
      }),
    );
  }

  /**
   * Starts `node [nodeFlags] script` with `env` (PATH and PORT added); stdout goes to /dev/null (the
   * service's log lines are written, and thrown away), stderr is kept for the error message.
   */
  static async start(name: string, script: string, env: Record<string, string>, nodeFlags: readonly string[] = []): Promise<ServerProcess> {
    const port = await freePort();
    const child = spawn(process.execPath, [...nodeFlags, script], {
      env: { PATH: process.env['PATH'] ?? '', ...env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const server = new ServerProcess(name, child, port);
    await server.ready();
    return server;
  }

  get pid(): number {
    return this.child.pid!;
  }

  get alive(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** The process's resident memory now and at its peak (VmRSS, VmHWM of /proc/PID/status), in MB. */
  memory(): { rssMb: number; peakMb: number } {
    try {
      const status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
      return { rssMb: kb('VmRSS') / 1024, peakMb: kb('VmHWM') / 1024 };
    } catch {
      return { rssMb: NaN, peakMb: NaN };
    }
  }

  /** The process's CPU time so far, user and system (utime + stime of /proc/PID/stat), in ms; NaN once it is gone. */
  cpuMs(): number {
    try {
      // The command name, in parentheses, may hold spaces: the fields are counted after it.
      const fields = readFileSync(`/proc/${this.pid}/stat`, 'utf8')
        .replace(/^.*\) /s, '')
        .split(' ');
      return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
    } catch {
      return NaN;
    }
  }

  async stop(): Promise<void> {
    if (this.alive) this.child.kill('SIGTERM');
    const killer = setTimeout(() => this.child.kill('SIGKILL'), 15_000);
    await this.exited;
    clearTimeout(killer);
  }

  private async ready(): Promise<void> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      if (!this.alive) throw new Error(`${this.name} exited at start: ${this.stderr.join('').trim()}`);
      const up = await fetch(`${this.url}/healthz`, { signal: AbortSignal.timeout(2_000) }).then(
        (res) => res.arrayBuffer().then(() => res.ok),
        () => false,
      );
      if (up) return;
      if (Date.now() > deadline) {
        await this.stop();
        throw new Error(`${this.name} did not answer /healthz within 30 s: ${this.stderr.join('').trim()}`);
      }
      await new Promise((done) => setTimeout(done, 100));
    }
  }
}

/** Stops every child still running (an interrupt, an error). */
export const stopAll = async (): Promise<void> => {
  const all = [...children];
  for (const child of all) child.kill('SIGTERM');
  await Promise.all(
    all.map(
      (child) =>
        new Promise<void>((done) => {
          if (child.exitCode !== null || child.signalCode !== null) return done();
          const killer = setTimeout(() => child.kill('SIGKILL'), 5_000);
          child.once('exit', () => {
            clearTimeout(killer);
            done();
          });
        }),
    ),
  );
};
