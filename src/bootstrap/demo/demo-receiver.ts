import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DemoReceiver {
  /** Where the demo's webhook endpoint points. */
  readonly url: string;
  /** How many deliveries it took. */
  received(): number;
  close(): Promise<void>;
}

/**
 * The receiver of the demo's webhooks, on loopback: it takes every delivery with 204 and keeps
 * nothing, so that the console's delivery log shows attempts that succeeded.
 */
export const startDemoReceiver = async (): Promise<DemoReceiver> => {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count++;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks`,
    received: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
};
