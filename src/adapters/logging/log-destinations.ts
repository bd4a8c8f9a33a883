import { pino, type DestinationStream } from 'pino';

/** Where a PinoLogger's lines go, and how to wait until they are there. */
export interface LogDestination {
  readonly stream: DestinationStream;
  /** Resolves once every line written so far has reached the destination; never rejects. */
  flush(): Promise<void>;
}

/**
 * How long `flush` waits for a file descriptor that takes nothing: a log reader that died or stopped
 * reading must not keep the process from exiting.
 */
const FLUSH_LIMIT_MS = 5_000;

/**
 * Lines written asynchronously to a file descriptor (stdout, fd 1, in production): a log call only
 * appends to a buffer, and the writes leave the event loop. pino flushes the buffer synchronously at
 * exit, but not a write already handed to the thread pool (pinojs/sonic-boom#101), and its own
 * `flush(cb)` calls back at once when nothing is held back for batching (minLength 0) even with a
 * write in flight; so `flush` here waits for the stream to drain instead.
 */
export const asyncFileDestination = (fd = 1): LogDestination => {
  const stream = pino.destination({ dest: fd, sync: false });
  const flush = (): Promise<void> =>
    new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(limit);
        stream.off('drain', done).off('error', done).off('close', done);
        resolve();
      };
      const limit = setTimeout(done, FLUSH_LIMIT_MS);
      stream.once('drain', done).once('error', done).once('close', done);
      try {
        // An empty write queues behind whatever is pending; 'drain' follows once all of it is out.
        stream.write('');
      } catch {
        done(); // the stream was closed: nothing left to wait for
      }
    });
  return { stream, flush };
};

/**
 * Each line, without its newline, handed to `sink` before the log call returns: tests read the lines
 * right after a request, and a logger that writes nothing needs no file descriptor.
 */
export const sinkDestination = (sink: (line: string) => void): LogDestination => ({
  stream: { write: (line: string) => sink(line.endsWith('\n') ? line.slice(0, -1) : line) },
  flush: () => Promise.resolve(),
});
