import { expect } from 'chai';
import { TEST_EPOCH } from '../support/mutable-clock';
import type { IdempotencyStore, StoredResponse } from '../../src/application/ports/idempotency-store';

const T0 = new Date(TEST_EPOCH);
const LEASE_MS = 10_000;
const TTL_MS = 24 * 3600_000;
const at = (ms: number): Date => new Date(T0.getTime() + ms);
const request = (fingerprint: string, now = T0, reservedId = 'ord_reserved1') => ({
  fingerprint,
  reservedId,
  now,
  leaseMs: LEASE_MS,
  ttlMs: TTL_MS,
});
const created: StoredResponse = {
  status: 201,
  headers: { location: '/api/v1/orders/A-1' },
  body: { order: { id: 'ord_reserved1', externalId: 'A-1', status: 'pending', isTest: false } },
};

/** What every IdempotencyStore must do (src/application/ports/idempotency-store.ts). */
export const idempotencyStoreContract = (adapterName: string, factory: () => Promise<IdempotencyStore>): void => {
  describe(`IdempotencyStore contract: ${adapterName}`, () => {
    let store: IdempotencyStore;
    const scope = { dashboardId: 'dsh_a', key: 'key-1' };

    beforeEach(async () => {
      store = await factory();
    });

    it('acquires a new key with the reserved id it was given', async () => {
      const outcome = await store.claim(scope, request('fp-1'));
      expect(outcome.kind).to.equal('acquired');
      if (outcome.kind !== 'acquired') return;
      expect(outcome.claim.reservedId).to.equal('ord_reserved1');
      expect(outcome.claim.claimId).to.be.a('string').and.not.be.empty;
    });

    // The races below rely on a unique key (claims) and on atomic conditional updates (takeovers):
    // where a store checks a filter apart from its write, several callers acquire one key.
    it('lets exactly one of many parallel claims of one key acquire it (unique key)', async () => {
      const outcomes = await Promise.all(Array.from({ length: 20 }, (_, i) => store.claim(scope, request('fp-1', T0, `ord_r${i}`))));
      expect(outcomes.filter((o) => o.kind === 'acquired')).to.have.length(1);
      expect(outcomes.filter((o) => o.kind === 'in-progress')).to.have.length(19);
    });

    it('reports an in-progress claim with its fingerprint and lease end', async () => {
      await store.claim(scope, request('fp-1'));
      const second = await store.claim(scope, request('fp-2', at(1_000)));
      expect(second).to.deep.equal({ kind: 'in-progress', fingerprint: 'fp-1', leaseExpiresAt: at(LEASE_MS) });
    });

    it('scopes keys by dashboard', async () => {
      await store.claim(scope, request('fp-1'));
      const other = await store.claim({ dashboardId: 'dsh_b', key: 'key-1' }, request('fp-1'));
      expect(other.kind).to.equal('acquired');
    });

    it('stores the response of the claim holder and returns it to later claims', async () => {
      const first = await store.claim(scope, request('fp-1'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      expect(await store.complete(scope, first.claim.claimId, created)).to.equal(true);
      const later = await store.claim(scope, request('fp-1', at(60_000)));
      expect(later).to.deep.equal({ kind: 'completed', fingerprint: 'fp-1', response: created });
      const otherRequest = await store.claim(scope, request('fp-2', at(60_000)));
      expect(otherRequest).to.deep.equal({ kind: 'completed', fingerprint: 'fp-1', response: created });
    });

    it('refuses to complete for a claim that no longer holds the key', async () => {
      const first = await store.claim(scope, request('fp-1'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      expect(await store.complete(scope, 'not-the-claim', created)).to.equal(false);
      expect((await store.claim(scope, request('fp-1', at(1_000)))).kind).to.equal('in-progress');
    });

    it('lets a retry take over a claim whose lease passed, keeping the reserved id', async () => {
      const first = await store.claim(scope, request('fp-1', T0, 'ord_first'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      const takeover = await store.claim(scope, request('fp-1', at(LEASE_MS + 1), 'ord_second'));
      expect(takeover.kind).to.equal('acquired');
      if (takeover.kind !== 'acquired') return;
      expect(takeover.claim.reservedId).to.equal('ord_first');
      expect(takeover.claim.claimId).not.to.equal(first.claim.claimId);
      expect(await store.complete(scope, first.claim.claimId, created)).to.equal(false);
      expect(await store.complete(scope, takeover.claim.claimId, created)).to.equal(true);
    });

    it('lets exactly one of parallel retries take over an expired lease (atomic conditional update)', async () => {
      await store.claim(scope, request('fp-1'));
      const outcomes = await Promise.all(Array.from({ length: 10 }, () => store.claim(scope, request('fp-1', at(LEASE_MS + 1)))));
      expect(outcomes.filter((o) => o.kind === 'acquired')).to.have.length(1);
    });

    it('does not hand an expired lease to a request with another fingerprint', async () => {
      await store.claim(scope, request('fp-1'));
      const other = await store.claim(scope, request('fp-2', at(LEASE_MS + 1)));
      expect(other.kind).to.equal('in-progress');
    });

    it('forgets a record once its TTL has passed: a fresh claim with a fresh reserved id', async () => {
      const first = await store.claim(scope, request('fp-1', T0, 'ord_first'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      await store.complete(scope, first.claim.claimId, created);
      expect((await store.claim(scope, request('fp-2', at(TTL_MS - 1)))).kind).to.equal('completed');
      const fresh = await store.claim(scope, request('fp-2', at(TTL_MS), 'ord_fresh'));
      expect(fresh.kind).to.equal('acquired');
      if (fresh.kind === 'acquired') expect(fresh.claim.reservedId).to.equal('ord_fresh');
    });

    it('lets exactly one of parallel claims of a key whose record expired acquire it (atomic conditional update)', async () => {
      const first = await store.claim(scope, request('fp-1', T0, 'ord_first'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      await store.complete(scope, first.claim.claimId, created);
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) => store.claim(scope, request(`fp-${i}`, at(TTL_MS + 1), `ord_new${i}`))),
      );
      const winners = outcomes.filter((o) => o.kind === 'acquired');
      expect(winners).to.have.length(1);
      const winner = outcomes.findIndex((o) => o.kind === 'acquired');
      expect(winners[0].kind === 'acquired' && winners[0].claim.reservedId).to.equal(`ord_new${winner}`);
      for (const outcome of outcomes.filter((o) => o.kind !== 'acquired')) {
        expect(outcome).to.deep.equal({ kind: 'in-progress', fingerprint: `fp-${winner}`, leaseExpiresAt: at(TTL_MS + 1 + LEASE_MS) });
      }
    });

    it('releases an in-progress claim so the key can be used again, only for its holder', async () => {
      const first = await store.claim(scope, request('fp-1'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      await store.release(scope, 'not-the-claim');
      expect((await store.claim(scope, request('fp-1', at(1)))).kind).to.equal('in-progress');
      await store.release(scope, first.claim.claimId);
      expect((await store.claim(scope, request('fp-2', at(2)))).kind).to.equal('acquired');
    });

    it('lets the same request take an abandoned claim over at once, with the same reserved id', async () => {
      const first = await store.claim(scope, request('fp-1', T0, 'ord_first'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      await store.abandon(scope, 'not-the-claim', at(1));
      expect((await store.claim(scope, request('fp-1', at(2)))).kind).to.equal('in-progress');
      await store.abandon(scope, first.claim.claimId, at(3));
      expect(await store.claim(scope, request('fp-2', at(4)))).to.deep.equal({
        kind: 'in-progress',
        fingerprint: 'fp-1',
        leaseExpiresAt: at(3),
      });
      const retry = await store.claim(scope, request('fp-1', at(4), 'ord_second'));
      expect(retry.kind).to.equal('acquired');
      if (retry.kind === 'acquired') expect(retry.claim.reservedId).to.equal('ord_first');
    });

    it('never abandons a completed record', async () => {
      const first = await store.claim(scope, request('fp-1'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      await store.complete(scope, first.claim.claimId, created);
      await store.abandon(scope, first.claim.claimId, at(1));
      expect((await store.claim(scope, request('fp-1', at(2)))).kind).to.equal('completed');
    });

    it('never releases a completed record', async () => {
      const first = await store.claim(scope, request('fp-1'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      await store.complete(scope, first.claim.claimId, created);
      await store.release(scope, first.claim.claimId);
      expect((await store.claim(scope, request('fp-1', at(1)))).kind).to.equal('completed');
    });

    it('keeps a stored body exactly, problem bodies and nested values included', async () => {
      const first = await store.claim(scope, request('fp-1'));
      if (first.kind !== 'acquired') throw new Error('expected acquired');
      const problem: StoredResponse = {
        status: 409,
        headers: {},
        body: { type: 'about:blank', status: 409, code: 'DUPLICATE_EXTERNAL_ID', requestId: 'req_1', list: [1, 'a', null, { b: true }] },
      };
      await store.complete(scope, first.claim.claimId, problem);
      const later = await store.claim(scope, request('fp-1', at(1)));
      expect(later).to.deep.equal({ kind: 'completed', fingerprint: 'fp-1', response: problem });
    });
  });
};
