import type { RequestListener, ServerResponse } from 'node:http';
import { createHttpServer, listen, type Serving, type SharedHttpServer } from '../../src/adapters/http/kit/server';
import { RandomIdGenerator } from '../../src/adapters/system/random-id-generator';
import { memoryLogger } from './memory-log';
import { testConfig } from './test-config';

/** The shared server held for one service from before it starts until it stops. */
export interface SharedServerTurn extends SharedHttpServer {
  /** Gives the server back unused: the service failed to start. */
  release(): void;
}

/**
 * One HTTP server for the services the tests start one after another, with the kit's connection
 * handling and the tests' default limits. A server per test took a new port and new connections for
 * each of hundreds of tests; through this one, the clients' keep-alive connections go from one test's
 * service to the next. One service at a time: a second one started meanwhile listens on its own port.
 */
class OneAtATimeServer {
  private held = false;
  private listener: RequestListener | undefined;

  private constructor(private readonly serving: Serving) {}

  static async start(): Promise<OneAtATimeServer> {
    let shared: OneAtATimeServer | undefined = undefined;
    const dispatch: RequestListener = (req, res) => {
      if (shared?.listener === undefined) {
        // Between two tests: nobody's request, and nobody's data to give it.
        res.writeHead(503, { 'content-type': 'text/plain', connection: 'close' }).end('no service is attached to the tests’ server');
        return;
      }
      shared.listener(req, res);
    };
    // Idle connections are kept a minute (fetch keeps them as long as the server says it will): a
    // test's burst of parallel requests leaves them open for the next test's.
    const limits = { ...testConfig().http, keepAliveTimeoutMs: 60_000 };
    const server = createHttpServer({ callback: () => dispatch }, limits, new RandomIdGenerator(), memoryLogger().logger);
    shared = new OneAtATimeServer(await listen(server, '127.0.0.1', 0));
    // The run ends whether or not this server is open.
    server.unref();
    return shared;
  }

  /** The server for one service, or undefined while another holds it. */
  take(): SharedServerTurn | undefined {
    if (this.held) return undefined;
    this.held = true;
    let attached = false;
    return {
      attach: (app) => {
        if (attached) throw new Error('one service per turn of the shared test server');
        attached = true;
        return this.attach(app.callback());
      },
      release: () => {
        if (!attached) this.held = false;
      },
    };
  }

  private attach(listener: RequestListener): Serving {
    const inFlight = new Set<ServerResponse>();
    let drained: (() => void) | undefined;
    const take: RequestListener = (req, res) => {
      inFlight.add(res);
      res.once('close', () => {
        inFlight.delete(res);
        if (inFlight.size === 0) drained?.();
      });
      listener(req, res);
    };
    this.listener = take;
    const { server, url } = this.serving;
    return {
      server,
      url,
      close: async () => {
        if (this.listener === take) {
          this.listener = undefined;
          this.held = false;
        }
        if (inFlight.size > 0) await new Promise<void>((resolve) => (drained = resolve));
      },
      cutOff: () => {
        for (const res of inFlight) res.destroy();
      },
    };
  }
}

let started: Promise<OneAtATimeServer> | undefined;

/** The run's shared server for one service, or undefined while another service holds it (the caller listens on a port of its own). */
export const takeSharedServer = async (): Promise<SharedServerTurn | undefined> => (await (started ??= OneAtATimeServer.start())).take();
