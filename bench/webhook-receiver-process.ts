import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fast webhook receiver in a process of its own (so that it does not take the service's event
 * loop): answers 204 to every request as soon as its body has arrived, and tells its parent over IPC
 * how many it got, and when the first and the last arrived.
 */
let count = 0;
let first = 0;
let last = 0;
const server = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    const now = performance.now();
    if (count === 0) first = now;
    last = now;
    count += 1;
    res.writeHead(204).end();
  });
});
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => process.send?.({ port: (server.address() as AddressInfo).port }));
process.on('message', (message: string) => {
  if (message === 'reset') count = first = last = 0;
  process.send?.({ count, first, last });
});
process.on('disconnect', () => process.exit(0));
