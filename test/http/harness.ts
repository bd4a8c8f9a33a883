import { expect } from 'chai';
import type { Config } from '../../src/bootstrap/config';
import type { Logger } from '../../src/application/ports/logger';
import type { Storage } from '../../src/application/ports/storage';
import type { Resolver } from '../../src/adapters/webhooks/outbound-addresses';
import { memoryLogger } from '../support/memory-log';
import { MutableClock } from '../support/mutable-clock';
import { anOrderPayload } from '../support/order-builder';
import { TestApi, type ApiResponse } from '../support/test-api';

/** Storage over an empty database, new at each call. */
export type StorageFactory = () => Promise<Storage>;

export interface HarnessOptions {
  readonly config?: Partial<Config>;
  /** Runs the service on `harness.clock`, which stands still until the test moves it. */
  readonly clock?: boolean;
  /** Changes the storage before the service gets it (to make a port fail, say); `logger` is the service's. */
  readonly storage?: (storage: Storage, logger: Logger) => Storage;
  /** Makes a dashboard and a token before each test (needs the admin API). Default true. */
  readonly dashboard?: boolean;
  /** Resolves the host names of webhook URLs (by default the system's resolver). */
  readonly resolver?: Resolver;
  /** Listens on a port of its own instead of the run's shared server: what Node answers before routing is logged in `logs`. */
  readonly ownPort?: boolean;
}

/** What each test gets: a running service, its log lines, its clock and a dashboard with a token. */
export interface Harness {
  api: TestApi;
  clock: MutableClock;
  logs: string[];
  dashboardId: string;
  token: string;
  tokenId: string;
}

/** Starts a service on fresh storage before each test of the enclosing describe, and stops it after. */
export const useApi = (storageFactory: StorageFactory, options: HarnessOptions = {}): Harness => {
  const harness = {} as Harness;
  let running: TestApi | undefined;
  beforeEach(async () => {
    harness.clock = new MutableClock();
    const { logger, lines } = memoryLogger();
    harness.logs = lines;
    const fresh = await storageFactory();
    const storage = options.storage === undefined ? fresh : options.storage(fresh, logger);
    running = await TestApi.start(
      options.config ?? {},
      {
        storage,
        logger,
        ...(options.clock === true ? { clock: harness.clock } : {}),
        ...(options.resolver === undefined ? {} : { resolver: options.resolver }),
      },
      { ownPort: options.ownPort === true },
    );
    harness.api = running;
    if (options.dashboard !== false) Object.assign(harness, await running.newDashboard());
  });
  afterEach(async () => {
    await running?.stop();
    running = undefined;
  });
  return harness;
};

export const ORDERS = '/api/v1/orders';

export const orderPath = (externalId: string): string => `${ORDERS}/${encodeURIComponent(externalId)}`;

/** POST /api/v1/orders with the minimal payload changed by `changes`, as `token` (the harness's by default). */
export const postOrder = (h: Harness, changes: Record<string, unknown> = {}, token = h.token): Promise<ApiResponse> =>
  h.api.request('POST', ORDERS, { token, body: anOrderPayload(changes) });

/** Creates an order and fails the test unless it was created. */
export const createOrder = async (
  h: Harness,
  changes: Record<string, unknown> = {},
  token = h.token,
): Promise<{ id: string; externalId: string; status: string; isTest: boolean }> => {
  const res = await postOrder(h, changes, token);
  expect(res.status, res.text).to.equal(201);
  return res.body.order;
};

/** GET one order's list item, failing the test unless it is found. */
export const readOrder = async (h: Harness, externalId: string, token = h.token): Promise<any> => {
  const res = await h.api.request('GET', orderPath(externalId), { token });
  expect(res.status, res.text).to.equal(200);
  return res.body.order;
};

/** The order as the listing shows it: the list item of the specification. */
export const readListItem = async (h: Harness, externalId: string, token = h.token): Promise<any> => {
  const res = await h.api.request('GET', `${ORDERS}?pageSize=100`, { token });
  expect(res.status, res.text).to.equal(200);
  const item = res.body.orders.find((order: { externalId: string }) => order.externalId === externalId);
  expect(item, `${externalId} in the listing`).to.not.equal(undefined);
  return item;
};

export const listOrders = async (h: Harness, query = '', token = h.token): Promise<any> => {
  const res = await h.api.request('GET', `${ORDERS}${query}`, { token });
  expect(res.status, res.text).to.equal(200);
  return res.body;
};
