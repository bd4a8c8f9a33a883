import { expect } from 'chai';
import * as O from 'fp-ts/Option';
import { container, type DependencyContainer, type InjectionToken } from 'tsyringe';
import { inMemoryStorage } from '../../src/adapters/memory/in-memory-storage';
import type { Storage } from '../../src/application/ports/storage';
import type { Ports } from '../../src/application/use-cases';
import { compose, composeContainer, PORT_REGISTRATIONS, type PortRegistrations, type Wiring } from '../../src/bootstrap/composition';
import { HTTP_WEBHOOK_SENDER, PORTS, STORAGE, USE_CASES } from '../../src/bootstrap/tokens';
import { MutableClock } from '../support/mutable-clock';
import { describeWithMongo } from '../support/mongo-server';
import { temporarySqliteStorage } from '../support/sqlite-files';

const wiringOn = (storage: Storage): Wiring => ({
  storage,
  transitions: { pending: ['paid'] },
  rateLimit: { max: 600, windowSeconds: 60 },
  idempotency: { ttlMs: 86_400_000, leaseMs: 10_000 },
});

const PORT_NAMES = Object.keys(PORTS) as (keyof Ports)[];
/** The ports a store provides: the composition must hand over the store's own adapters. */
const STORE_PORTS = PORT_NAMES.filter((name) => name in inMemoryStorage());

const resolveEach = (c: DependencyContainer): Record<string, unknown> =>
  Object.fromEntries(PORT_NAMES.map((name) => [name, c.resolve<unknown>(PORTS[name])]));

/** Every port and every use case resolve in a service's container on `store`, wired to that store. */
const resolvesOn = (store: string, open: () => Promise<Storage>) => {
  let storage: Storage | undefined;
  const opened = (): Storage => {
    if (storage === undefined) throw new Error(`the ${store} store did not open`);
    return storage;
  };
  before(async () => {
    storage = await open();
  });
  after(() => storage?.health.close());

  it(`resolves every port on ${store}, each storage port to the store's own adapter`, () => {
    const storage = opened();
    const resolved = resolveEach(composeContainer(wiringOn(storage)));
    // Only the sign-in limits may be absent: SignIn has defaults of its own.
    expect(PORT_NAMES.filter((name) => resolved[name] === undefined)).to.deep.equal(['signInLimits']);
    expect(STORE_PORTS).to.include.members(['orders', 'dashboards', 'accounts', 'outbox', 'reports', 'spend']);
    for (const name of STORE_PORTS) expect(resolved[name], name).to.equal(storage[name as keyof Storage]);
  });

  it(`resolves every use case on ${store}, and they work on that store`, async () => {
    const c = composeContainer(wiringOn(opened()));
    const useCases = c.resolve(USE_CASES);
    const names = Object.keys(useCases);
    expect(names).to.include.members(['createOrder', 'updateOrder', 'signIn', 'deliverWebhooks', 'getBreakdown', 'putSpend']);
    // Each one an instance of its use case's class, built from ports of this container.
    const built = Object.values(useCases as unknown as Record<string, object>);
    expect(built.filter((useCase) => typeof useCase !== 'object' || useCase.constructor === Object)).to.deep.equal([]);
    const made = await useCases.createDashboard.execute('Composed', 'UTC');
    const stored = await c.resolve(STORAGE).dashboards.findById(made.id);
    expect(O.isSome(stored) && stored.value.name).to.equal('Composed');
  });
};

describe('composition: a tsyringe container per service', () => {
  describe('on the in-memory store', () => resolvesOn('memory', () => Promise.resolve(inMemoryStorage())));
  describe('on SQLite', () => resolvesOn('SQLite', () => Promise.resolve(temporarySqliteStorage())));
  describeWithMongo('on MongoDB', (mongo) => resolvesOn('MongoDB', () => mongo.connect()));

  it('gives each service a container of its own: two compositions share no adapter they made, and the root holds nothing', () => {
    const storage = inMemoryStorage();
    const first = resolveEach(composeContainer(wiringOn(storage)));
    const second = resolveEach(composeContainer(wiringOn(storage)));
    for (const name of ['localRateLimits', 'clock', 'ids', 'slugs', 'transitions', 'webhookSender', 'webhookUrls', 'passwords'] as const)
      expect(first[name], name).to.not.equal(second[name]);
    const tokens: InjectionToken<unknown>[] = [...Object.values(PORTS), USE_CASES, STORAGE, HTTP_WEBHOOK_SENDER];
    expect(tokens.filter((token) => container.isRegistered(token, true)).map(String)).to.deep.equal([]);
  });

  it('makes each port once per container: every use case of a service shares its counters, clock and sender', () => {
    const c = composeContainer(wiringOn(inMemoryStorage()));
    for (const name of PORT_NAMES)
      if (name !== 'signInLimits') expect(c.resolve<unknown>(PORTS[name]), name).to.equal(c.resolve<unknown>(PORTS[name]));
    expect(c.resolve(USE_CASES)).to.equal(c.resolve(USE_CASES));
    expect(c.resolve(PORTS.webhookSender)).to.equal(c.resolve(HTTP_WEBHOOK_SENDER));
  });

  it("takes what the wiring gives (a test's clock) and what compose hands to the driving adapters comes from the container", () => {
    const clock = new MutableClock();
    const composed = compose({ ...wiringOn(inMemoryStorage()), clock });
    expect(composed.container.resolve(PORTS.clock)).to.equal(clock);
    expect(composed.useCases).to.equal(composed.container.resolve(USE_CASES));
    expect(composed.ids).to.equal(composed.container.resolve(PORTS.ids));
    expect(composed.webhookSender).to.equal(composed.container.resolve(HTTP_WEBHOOK_SENDER));
  });

  it('does not compile a registration table or a token table that leaves a port out', () => {
    const { orders: _orders, ...withoutOrders } = PORT_REGISTRATIONS;
    // @ts-expect-error a port left out of the registrations is a compile error
    const registrations: PortRegistrations = withoutOrders;
    const { clock: _clock, ...withoutClock } = PORTS;
    // @ts-expect-error a port left out of the tokens is a compile error
    const tokens: typeof PORTS = withoutClock;
    expect(Object.keys(registrations)).to.not.include('orders');
    expect(Object.keys(tokens)).to.not.include('clock');
  });
});
