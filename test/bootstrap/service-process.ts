import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';

/** The compiled main next to this compiled file, so the tests run from dist/ or any other out dir. */
export const MAIN_JS = resolve(__dirname, '../../src/bootstrap/main.js');

/** A port that was free a moment ago: main does not report the port it bound for PORT=0. */
export const freePort = (): Promise<number> =>
  new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => done(port));
    });
  });

/** `node main.js` (or another entry point) as a child process, with its output split into lines. */
export class ServiceProcess {
  readonly stdout: string[] = [];
  readonly stderr: string[] = [];
  /** Settles once the process has exited and its output is read to the end. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly child: ChildProcess;
  private waiters: (() => void)[] = [];

  /** `launcher`: a command that runs node in its place (`taskset -c 0`, for a benchmark that pins the service to a core). */
  constructor(env: Record<string, string>, script = MAIN_JS, launcher: readonly string[] = []) {
    const [command, ...args] = [...launcher, process.execPath, script];
    this.child = spawn(command, args, { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.collect(this.child.stdout, this.stdout);
    this.collect(this.child.stderr, this.stderr);
    this.exited = new Promise((done) => this.child.once('close', (code, signal) => done({ code, signal })));
  }

  /** Parsed JSON lines of stdout; a line that is not JSON fails the caller. */
  get logs(): Record<string, unknown>[] {
    return this.stdout.map((line) => JSON.parse(line) as Record<string, unknown>);
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Stops reading stdout, as a log collector that falls behind: once the pipe is full, the service's writes wait. */
  pauseStdout(): void {
    this.child.stdout?.pause();
  }

  resumeStdout(): void {
    this.child.stdout?.resume();
  }

  /** Resolves once a stdout line satisfies `test`; rejects after `ms` or when the process exits first. */
  async waitForLine(test: (line: string) => boolean, ms = 10_000): Promise<string> {
    const deadline = Date.now() + ms;
    for (;;) {
      const found = this.stdout.find(test);
      if (found !== undefined) return found;
      if (this.child.exitCode !== null) throw new Error(`process exited (${this.child.exitCode}): ${this.stderr.join('\n')}`);
      if (Date.now() > deadline) throw new Error(`no such line within ${ms} ms; stdout: ${this.stdout.join('\n')}`);
      await new Promise<void>((done) => {
        this.waiters.push(done);
        setTimeout(done, 50);
      });
    }
  }

  /** Makes sure the process is gone, whatever the test did. */
  async dispose(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    await this.exited;
  }

  private collect(stream: NodeJS.ReadableStream | null, into: string[]): void {
    let pending = '';
    stream?.setEncoding('utf8');
    stream?.on('data', (chunk: string) => {
      pending += chunk;
      const parts = pending.split('\n');
      pending = parts.pop() ?? '';
      into.push(...parts);
      const waiters = this.waiters;
      this.waiters = [];
      for (const wake of waiters) wake();
    });
    stream?.on('end', () => {
      if (pending !== '') into.push(pending);
    });
  }
}
