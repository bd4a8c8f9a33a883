import { connect, createServer, type Server, type Socket } from 'node:net';

/** The MongoDB wire protocol's OP_MSG (the only opcode a current driver sends once connected). */
const OP_MSG = 2013;

/**
 * The name of the command an OP_MSG message carries, and its value when it is a string (`insert:
 * "orders"` names the collection): the first element of the message's body section (kind 0). Other
 * messages give undefined.
 */
export const commandOf = (message: Buffer): { readonly name: string; readonly collection?: string } | undefined => {
  if (message.length < 21 || message.readInt32LE(12) !== OP_MSG) return undefined;
  let at = 20;
  while (at < message.length) {
    const kind = message[at];
    if (kind === 1) {
      at += 1 + message.readInt32LE(at + 1);
      continue;
    }
    if (kind !== 0) return undefined;
    const element = at + 5;
    const type = message[element];
    const keyEnd = message.indexOf(0, element + 1);
    const name = message.toString('utf8', element + 1, keyEnd);
    if (type !== 0x02) return { name };
    const length = message.readInt32LE(keyEnd + 1);
    return { name, collection: message.toString('utf8', keyEnd + 5, keyEnd + 4 + length) };
  }
  return undefined;
};

/**
 * A loopback TCP proxy in front of a MongoDB server, speaking nothing but bytes: `cut` resets every
 * connection at once (a network failure, a server gone) and new ones until `restore`. The
 * client's messages are forwarded whole, one at a time, each shown to `onCommand` first, so that a
 * test can cut right after the message it names, before any later one is forwarded.
 */
export class CuttableProxy {
  onCommand: (command: { readonly name: string; readonly collection?: string }) => void = () => undefined;
  private readonly sockets = new Set<Socket>();
  private refusing = false;

  private constructor(
    private readonly server: Server,
    private readonly target: { readonly host: string; readonly port: number },
  ) {}

  /** A proxy on a free loopback port in front of the first host of `mongoUri`. */
  static async start(mongoUri: string): Promise<CuttableProxy> {
    const host = new URL(mongoUri.replace(/^mongodb:/, 'http:'));
    let proxy: CuttableProxy | undefined;
    const server = createServer((client) => proxy!.accept(client));
    proxy = new CuttableProxy(server, { host: host.hostname, port: Number(host.port || 27017) });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** `mongoUri` through the proxy: its host and port replaced, a direct connection to it. */
  uriOf(mongoUri: string): string {
    const { port } = this.server.address() as { port: number };
    const path = mongoUri.replace(/^mongodb:\/\/[^/]+/, '');
    return `mongodb://127.0.0.1:${port}${path.startsWith('/') ? path : `/${path}`}`;
  }

  /**
   * Resets every connection, as a server or a network that is gone does (a FIN instead could leave the
   * driver's monitor waiting for good on a hello it had just written).
   */
  cut(): void {
    this.refusing = true;
    for (const socket of this.sockets) socket.resetAndDestroy();
    this.sockets.clear();
  }

  restore(): void {
    this.refusing = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private accept(client: Socket): void {
    if (this.refusing) {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(this.target.port, this.target.host);
    for (const socket of [client, upstream]) {
      this.sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        this.sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    upstream.pipe(client);
    let pending = Buffer.alloc(0);
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= pending.readInt32LE(0)) {
        const message = pending.subarray(0, pending.readInt32LE(0));
        pending = pending.subarray(message.length);
        if (upstream.destroyed) return;
        upstream.write(message);
        const command = commandOf(message);
        if (command !== undefined) this.onCommand(command);
      }
    });
  }
}
